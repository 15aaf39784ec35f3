// A run asked to stop from outside (core/cancel.hpp) ends on every rank in the same round with
// Cancelled, on the engines that agree on rounds (vertex, dsl, la), and the next run is unaffected.
#include "courier/core/cancel.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>
#include <vector>

#include "courier/algo/builtin.hpp"
#include "courier/core/timer.hpp"
#include "courier/harness/run.hpp"

namespace courier {
namespace {

harness::RunSpec endless_pagerank(const std::string& engine, int ranks) {
  harness::RunSpec spec{.algorithm = "pagerank", .graph = "kron:10", .engine = engine, .ranks = ranks, .threads = 1};
  spec.options.set("tolerance", "0");  // never converges: only the iteration cap would end it
  spec.options.set("iterations", "100000000");
  return spec;
}

TEST(Cancel, EveryRankStopsInTheSameRoundAndTheNextRunIsUnaffected) {
  for (const std::string engine : {"vertex", "dsl", "la"}) {
    for (int ranks : {1, 3}) {
      clear_cancellation();
      std::thread asker([] {
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
        request_cancellation();
      });
      Timer timer;
      EXPECT_THROW(harness::run(builtin_registry(), endless_pagerank(engine, ranks)), Cancelled)
          << engine << " at " << ranks << " ranks";
      asker.join();
      EXPECT_LT(timer.elapsed(), 30.0) << engine << " at " << ranks << " ranks";
      clear_cancellation();
      harness::RunSpec bfs{.algorithm = "bfs", .graph = "kron:8", .engine = engine, .ranks = ranks, .verify = true};
      EXPECT_TRUE(harness::run(builtin_registry(), bfs).passed()) << engine << " at " << ranks << " ranks";
    }
  }
}

TEST(Cancel, ARequestBeforeTheRunStopsItAtItsFirstRound) {
  request_cancellation();
  EXPECT_THROW(harness::run(builtin_registry(), endless_pagerank("vertex", 2)), Cancelled);
  clear_cancellation();
}

}  // namespace
}  // namespace courier
