#include "courier/core/progress.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <thread>
#include <vector>

namespace progress_test {

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

TEST(Progress, InALogALinePerTenth) {
  std::FILE* file = std::tmpfile();
  ASSERT_NE(file, nullptr);
  {
    courier::Progress progress("generating kron:30", 1000, 1, "edges", file);
    ASSERT_TRUE(progress.active());
    for (int i = 0; i < 100; ++i) progress.add(10);
  }
  const std::string text = read_back(file);
  std::fclose(file);
  EXPECT_NE(text.find("generating kron:30: 10%"), std::string::npos) << text;
  EXPECT_NE(text.find("generating kron:30: 100%\n"), std::string::npos) << text;
  EXPECT_EQ(text.find("generating kron:30: 11%"), std::string::npos) << text;  // only tenths
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 10) << text;
}

TEST(Progress, RateAndTimeLeftOnceMeasurable) {
  std::FILE* file = std::tmpfile();
  ASSERT_NE(file, nullptr);
  {
    courier::Progress progress("reading g.el", 1000, 1, "B", file);
    std::this_thread::sleep_for(std::chrono::milliseconds(250));
    progress.add(500);
  }
  const std::string text = read_back(file);
  std::fclose(file);
  EXPECT_NE(text.find("reading g.el: 50%, "), std::string::npos) << text;
  EXPECT_NE(text.find("B/s, "), std::string::npos) << text;
  EXPECT_NE(text.find(" s left"), std::string::npos) << text;
}

TEST(Progress, NeverWhenQuietNorOnRanksThatDoNotSpeak) {
  courier::set_progress_mode(courier::ProgressMode::always);
  {
    courier::ProgressSpeaker rank_one(false);
    EXPECT_FALSE(courier::Progress("work", 1000, 1).active());
    EXPECT_FALSE(courier::ProgressLine("rounds").active());
  }
  testing::internal::CaptureStderr();
  {
    courier::Progress speaking("work", 1000, 1);  // always: even into a pipe
    EXPECT_TRUE(speaking.active());
    speaking.add(1000);
  }
  EXPECT_NE(testing::internal::GetCapturedStderr().find("work: 100%"), std::string::npos);
  courier::set_progress_mode(courier::ProgressMode::never);
  EXPECT_FALSE(courier::Progress("work", 1000, 1).active());
  EXPECT_FALSE(courier::ProgressLine("rounds").active());
  courier::set_progress_mode(courier::ProgressMode::automatic);
}

TEST(ProgressLine, InALogANewLineEveryLogPeriod) {
  courier::set_progress_mode(courier::ProgressMode::always);
  courier::set_progress_log_period(std::chrono::milliseconds(0));
  testing::internal::CaptureStderr();  // a pipe, not a terminal
  {
    courier::ProgressLine line("rounds");
    ASSERT_TRUE(line.active());
    ASSERT_TRUE(line.due());
    line.show("round 1, 5 active");
    line.show("round 2, 1 active");
  }
  courier::set_progress_log_period(std::chrono::hours(1));
  {
    courier::ProgressLine line("rounds");
    EXPECT_TRUE(line.active());
    EXPECT_FALSE(line.due());
  }
  const std::string text = testing::internal::GetCapturedStderr();
  courier::set_progress_log_period(std::chrono::seconds(5));
  courier::set_progress_mode(courier::ProgressMode::automatic);
  EXPECT_EQ(text, "rounds: round 1, 5 active\nrounds: round 2, 1 active\n");
}

TEST(ProgressLine, WaitsForItsPeriod) {
  std::FILE* file = std::tmpfile();
  ASSERT_NE(file, nullptr);
  courier::ProgressLine line("rounds", std::chrono::hours(1), file);
  EXPECT_FALSE(line.due());
  std::fclose(file);
}

}  // namespace

}  // namespace progress_test
