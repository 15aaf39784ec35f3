#include "courier/core/progress.hpp"

#include <gtest/gtest.h>

#include <thread>
#include <vector>

namespace {

TEST(Progress, SilentForSmallWork) {
  courier::Progress progress("small", 1000);  // below the 64 MiB default threshold
  EXPECT_FALSE(progress.active());
  progress.add(600);
  progress.add(400);
  EXPECT_EQ(progress.done(), 1000u);
}

TEST(Progress, ThreadSafeAdds) {
  // Active only on a terminal; either way concurrent adds must be safe.
  courier::Progress progress("work", 8000, 1);
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&] {
      for (int i = 0; i < 1000; ++i) progress.add(1);
    });
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(progress.done(), 8000u);
}

}  // namespace

namespace {

std::string read_back(std::FILE* file) {
  std::rewind(file);
  std::string text;
  for (int c = std::fgetc(file); c != EOF; c = std::fgetc(file)) text += static_cast<char>(c);
  return text;
}

TEST(ProgressLine, RedrawsItsLineWhenDueAndEndsIt) {
  std::FILE* file = std::tmpfile();
  ASSERT_NE(file, nullptr);
  {
    courier::ProgressLine line("rounds", std::chrono::milliseconds(0), file);
    ASSERT_TRUE(line.active());
    ASSERT_TRUE(line.due());
    line.show("round 1, 5 active");
    line.show("round 2, 1 active");
  }
  const std::string text = read_back(file);
  std::fclose(file);
  EXPECT_NE(text.find("\rrounds: round 1, 5 active"), std::string::npos) << text;
  EXPECT_NE(text.find("\rrounds: round 2, 1 active"), std::string::npos) << text;
  EXPECT_EQ(text.back(), '\n');
}

TEST(ProgressLine, WaitsForItsPeriod) {
  std::FILE* file = std::tmpfile();
  ASSERT_NE(file, nullptr);
  courier::ProgressLine line("rounds", std::chrono::hours(1), file);
  EXPECT_FALSE(line.due());
  std::fclose(file);
}

}  // namespace
