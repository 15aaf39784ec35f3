#include "courier/core/mapped_file.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "courier/core/error.hpp"

namespace mapped_file_test {

namespace fs = std::filesystem;
using courier::MappedFile;

namespace {

fs::path fresh_dir() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  const fs::path dir = fs::path(COURIER_TEST_TMPDIR) / "mapped_file" / info->name();
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

TEST(MappedFile, MapsTheWholeFile) {
  const fs::path path = fresh_dir() / "f.txt";
  std::ofstream(path, std::ios::binary) << "line 1\nline 2";
  for (bool populate : {false, true}) {
    const auto file = MappedFile::open(path.string(), {.populate = populate});
    EXPECT_EQ(file->text(), "line 1\nline 2");
    EXPECT_EQ(file->size(), 13u);
    EXPECT_EQ(file->path(), path.string());
  }
}

TEST(MappedFile, EmptyFileIsAnEmptyRange) {
  const fs::path path = fresh_dir() / "empty";
  std::ofstream(path).flush();
  const auto file = MappedFile::open(path.string());
  EXPECT_EQ(file->size(), 0u);
  EXPECT_NE(file->data(), nullptr);
}

TEST(MappedFile, MissingFileOrFolderIsAnInputError) {
  const fs::path dir = fresh_dir();
  try {
    MappedFile::open((dir / "absent").string());
    FAIL() << "expected an InputError";
  } catch (const courier::InputError& error) {
    EXPECT_EQ(std::string(error.what()), (dir / "absent").string() + ": cannot open: No such file or directory");
  }
  EXPECT_THROW(MappedFile::open(dir.string()), courier::InputError);
}

}  // namespace

}  // namespace mapped_file_test
