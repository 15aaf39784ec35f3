#include "courier/core/backoff.hpp"

#include <gtest/gtest.h>

#include <chrono>

namespace backoff_test {

TEST(Backoff, SpinsThenYieldsThenSleepsBriefly) {
  courier::Backoff backoff({.spins = 4, .yields = 2, .first_sleep = std::chrono::microseconds(50),
                            .max_sleep = std::chrono::microseconds(400)});
  for (int i = 0; i < 6; ++i) {
    EXPECT_FALSE(backoff.sleeping());
    backoff.pause();
  }
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < 20; ++i) backoff.pause();
  const auto waited = std::chrono::steady_clock::now() - start;
  EXPECT_TRUE(backoff.sleeping());
  // 50+100+200+400*17 us at least; far less than a second even on a loaded machine.
  EXPECT_GE(waited, std::chrono::microseconds(7000));
  EXPECT_LT(waited, std::chrono::seconds(2));
  backoff.reset();
  EXPECT_FALSE(backoff.sleeping());
}

}  // namespace backoff_test
