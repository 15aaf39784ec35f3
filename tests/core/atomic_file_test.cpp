#include "courier/core/atomic_file.hpp"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <thread>

#include "courier/core/error.hpp"

namespace atomic_file_test {

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

// Special files are written through: /dev/null stays a device (as root, a rename would replace it).
TEST(AtomicFile, WritesThroughACharacterDevice) {
  AtomicFile file("/dev/null");
  EXPECT_TRUE(file.temporary_path().empty());
  file.write("nothing to keep");
  file.commit();
  struct stat status {};
  ASSERT_EQ(::stat("/dev/null", &status), 0);
  EXPECT_TRUE(S_ISCHR(status.st_mode));
}

TEST(AtomicFile, WritesThroughAFifoToItsReader) {
  const fs::path fifo = fresh_dir() / "pipe";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::string received;
  std::thread reader([&] { received = contents(fifo); });
  {
    AtomicFile file(fifo.string());
    file.write("through the pipe");
    file.commit();
  }
  reader.join();
  EXPECT_EQ(received, "through the pipe");
  EXPECT_TRUE(fs::is_fifo(fifo));
}

TEST(AtomicFile, FollowsASymbolicLinkAndReplacesItsTarget) {
  const fs::path dir = fresh_dir();
  fs::create_directories(dir / "real");
  std::ofstream(dir / "real" / "target.txt") << "old";
  fs::create_symlink("real/target.txt", dir / "link.txt");
  AtomicFile file((dir / "link.txt").string());
  EXPECT_EQ(fs::path(file.temporary_path()).parent_path(), dir / "real") << "in the target's folder";
  file.write("new");
  file.commit();
  EXPECT_TRUE(fs::is_symlink(dir / "link.txt"));
  EXPECT_EQ(contents(dir / "real" / "target.txt"), "new");
  EXPECT_EQ(entries(dir / "real"), 1u);
}

TEST(AtomicFile, RemovesTheTemporariesOfAKilledRunButNotOfALiveOne) {
  const fs::path dir = fresh_dir();
  const pid_t child = ::fork();
  if (child == 0) ::_exit(0);
  ASSERT_GT(child, 0);
  ::waitpid(child, nullptr, 0);  // its pid now names no process
  const fs::path dead = dir / ("out.csr.courier-tmp-" + std::to_string(child) + "-0");
  const fs::path live = dir / ("out.csr.courier-tmp-" + std::to_string(::getpid()) + "-999");
  std::ofstream(dead) << "left behind";
  std::ofstream(live) << "being written";
  AtomicFile file((dir / "out.csr").string());
  EXPECT_FALSE(fs::exists(dead));
  EXPECT_TRUE(fs::exists(live));
}

TEST(AtomicFile, SigtermRemovesTheTemporaryAndStillEndsTheProcess) {
  const fs::path dir = fresh_dir();
  const pid_t child = ::fork();
  if (child == 0) {
    AtomicFile file((dir / "big.csr").string());
    file.write("half of it");
    ::raise(SIGTERM);
    ::_exit(3);  // not reached: SIGTERM ends the process
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM) << status;
  EXPECT_EQ(entries(dir), 0u) << "the temporary was left";
}

}  // namespace

}  // namespace atomic_file_test
