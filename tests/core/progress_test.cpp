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
