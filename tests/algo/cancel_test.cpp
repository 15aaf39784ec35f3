// A run asked to stop from outside (core/cancel.hpp) ends on every rank in the same round with
// Cancelled, on every engine (vertex, dsl and la at a round, the mailbox at an epoch's end, seq
// between iterations), and the next run is unaffected.
#include "courier/core/cancel.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "courier/algo/builtin.hpp"
#include "courier/core/timer.hpp"
#include "courier/harness/run.hpp"

namespace courier {
namespace cancel_test {

harness::RunSpec endless_pagerank(const std::string& engine, int ranks) {
  harness::RunSpec spec{.algorithm = "pagerank", .graph = "kron:10", .engine = engine, .ranks = ranks, .threads = 1};
  spec.options.set("tolerance", "0");  // never converges: only the iteration cap would end it
  spec.options.set("iterations", "100000000");
  return spec;
}

// Asks to stop `after` into `spec`'s run, which would run far longer: the run throws Cancelled
// soon, and a run after it is unaffected.
void expect_cancelled_then_a_clean_run(const harness::RunSpec& spec,
                                       std::chrono::milliseconds after = std::chrono::milliseconds(200)) {
  const std::string where = spec.engine + " at " + std::to_string(spec.ranks) + " ranks";
  clear_cancellation();
  std::thread asker([after] {
    std::this_thread::sleep_for(after);
    request_cancellation();
  });
  Timer timer;
  EXPECT_THROW(harness::run(builtin_registry(), spec), Cancelled) << where;
  asker.join();
  EXPECT_LT(timer.elapsed(), 30.0) << where;
  clear_cancellation();
  harness::RunSpec bfs{
      .algorithm = "bfs", .graph = "kron:8", .engine = spec.engine, .ranks = spec.ranks, .verify = true};
  if (spec.engine == "mailbox") bfs.algorithm = "cc";  // the mailbox runs no bfs
  EXPECT_TRUE(harness::run(builtin_registry(), bfs).passed()) << where;
}

TEST(Cancel, EveryRankStopsInTheSameRoundAndTheNextRunIsUnaffected) {
  for (const std::string engine : {"vertex", "dsl", "la"})
    for (int ranks : {1, 3}) expect_cancelled_then_a_clean_run(endless_pagerank(engine, ranks));
}

TEST(Cancel, TheSequentialReferenceStopsBetweenIterations) {
  expect_cancelled_then_a_clean_run(endless_pagerank("seq", 1));
}

// The mailbox has no rounds: its ranks agree at the end of an epoch (termination detection), and
// from the request on they skip callbacks, so the epoch drains. cc on this grid at 3 ranks sets up
// in about 0.3 s and then propagates labels for about 4 s in one epoch (Release build): asked
// after 1 s, it stops in that epoch.
TEST(Cancel, MailboxRanksStopTogetherAtTheEndOfAnEpoch) {
  harness::RunSpec cc{.algorithm = "cc", .graph = "grid:1000x1000", .engine = "mailbox", .ranks = 3};
  expect_cancelled_then_a_clean_run(cc, std::chrono::milliseconds(1000));
}

TEST(Cancel, ARequestBeforeTheRunStopsItAtItsFirstRound) {
  for (const std::string engine : {"vertex", "seq"}) {
    request_cancellation();
    EXPECT_THROW(harness::run(builtin_registry(), endless_pagerank(engine, engine == "seq" ? 1 : 2)), Cancelled)
        << engine;
  }
  for (int ranks : {1, 2}) {
    request_cancellation();
    harness::RunSpec cc{.algorithm = "cc", .graph = "kron:8", .engine = "mailbox", .ranks = ranks};
    EXPECT_THROW(harness::run(builtin_registry(), cc), Cancelled) << "mailbox at " << ranks << " ranks";
  }
  clear_cancellation();
}

}  // namespace cancel_test
}  // namespace courier
