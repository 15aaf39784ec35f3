#include "courier/core/atomic_file.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "courier/core/error.hpp"

namespace fs = std::filesystem;
using courier::AtomicFile;

namespace {

fs::path fresh_dir() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  const fs::path dir = fs::path(COURIER_TEST_TMPDIR) / "atomic_file" / info->name();
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

std::string contents(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

std::size_t entries(const fs::path& dir) {
  return static_cast<std::size_t>(std::distance(fs::directory_iterator(dir), fs::directory_iterator()));
}

TEST(AtomicFile, AppearsOnlyOnCommit) {
  const fs::path dir = fresh_dir();
  const fs::path target = dir / "out.txt";
  AtomicFile file(target.string());
  file.write("hello ");
  file.write("world");
  EXPECT_FALSE(fs::exists(target));
  EXPECT_TRUE(fs::exists(file.temporary_path()));
  EXPECT_EQ(fs::path(file.temporary_path()).parent_path(), dir) << "same folder, so the rename is atomic";
  file.commit();
  EXPECT_EQ(contents(target), "hello world");
  EXPECT_EQ(entries(dir), 1u);
  EXPECT_EQ(file.bytes_written(), 11u);
  EXPECT_THROW(file.write("more"), courier::Error);
}

TEST(AtomicFile, UncommittedLeavesNothingAndKeepsTheOldFile) {
  const fs::path dir = fresh_dir();
  const fs::path target = dir / "out.txt";
  std::ofstream(target) << "old";
  try {
    AtomicFile file(target.string());
    file.write("partial");
    throw std::runtime_error("writer failed");
  } catch (const std::runtime_error&) {
  }
  EXPECT_EQ(contents(target), "old");
  EXPECT_EQ(entries(dir), 1u) << "the temporary is gone";
}

TEST(AtomicFile, ReplacesAnExistingFile) {
  const fs::path dir = fresh_dir();
  const fs::path target = dir / "out.txt";
  std::ofstream(target) << "old";
  AtomicFile file(target.string());
  file.write("new");
  file.commit();
  EXPECT_EQ(contents(target), "new");
}

TEST(AtomicFile, MissingFolderIsAnErrorNamingThePath) {
  const fs::path target = fresh_dir() / "no" / "such" / "out.txt";
  try {
    AtomicFile file(target.string());
    FAIL() << "expected an error";
  } catch (const courier::Error& error) {
    EXPECT_NE(std::string(error.what()).find(target.string() + ": cannot create: No such file"), std::string::npos)
        << error.what();
  }
}

}  // namespace
