// The mailbox engine's applications (degree, cc, spmv) with the input loaded as paper 001 does
// (--mailbox-input as-read: each rank its own share, in file order) and owner-placed, on 1 to 4
// ranks of 1 to 3 compute threads each (1x2, 2x2, 2x1, ...): the values equal the sequential
// engine's (spmv: its verification, within rounding), and as read, degree's messages cross ranks.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <variant>

#include "courier/algo/builtin.hpp"
#include "courier/engines/mailbox.hpp"
#include "courier/harness/run.hpp"

namespace mailbox_threads_test {

namespace harness = courier::harness;

namespace {

harness::RunSpec mailbox_run(const std::string& algorithm, int ranks, unsigned threads, const std::string& input) {
  harness::RunSpec spec{.algorithm = algorithm,
                        .graph = "kron:11",
                        .engine = "mailbox",
                        .ranks = ranks,
                        .threads = threads,
                        .verify = true};
  spec.load.weights = true;
  spec.options.set("mailbox-input", input);
  spec.options.set("capacity", "2048");  // many exchanges, so callbacks run on every thread
  return spec;
}

const courier::engines::MailboxStats& stats_of(const harness::RunResult& result) {
  const auto* stats = dynamic_cast<const courier::engines::MailboxStats*>(result.stats.get());
  if (stats == nullptr) throw std::runtime_error("no mailbox statistics");
  return *stats;
}

// Records that went to another rank (every rank is on this one node).
std::uint64_t to_other_ranks(const harness::RunResult& result) {
  std::uint64_t sum = 0;
  for (const auto& report : stats_of(result).reports)
    sum += report.stats.messages_local + report.stats.messages_remote - report.stats.messages_self;
  return sum;
}

void check(const std::string& algorithm, int ranks, unsigned threads, const std::string& input,
           const harness::Values* expected) {
  const std::string what = algorithm + " on " + std::to_string(ranks) + "x" + std::to_string(threads) + ", " + input;
  const harness::RunResult result =
      harness::run(courier::builtin_registry(), mailbox_run(algorithm, ranks, threads, input));
  ASSERT_TRUE(result.verification.has_value()) << what;
  EXPECT_TRUE(result.passed()) << what << ": " << result.verification->mismatch;
  if (expected != nullptr) {
    EXPECT_TRUE(result.values == *expected) << what << ": values differ from the seq engine's";
  }
  EXPECT_EQ(stats_of(result).threads, threads) << what;
  if (algorithm != "degree" || ranks == 1) return;
  // As read, a rank's share holds edges of every owner; owner-placed, degree sends only to itself.
  if (input == "as-read") {
    EXPECT_GT(to_other_ranks(result), 0u) << what;
  } else {
    EXPECT_EQ(to_other_ranks(result), 0u) << what;
  }
}

harness::Values sequential(const std::string& algorithm) {
  harness::RunSpec spec = mailbox_run(algorithm, 1, 1, "as-read");
  spec.engine = "seq";
  spec.options = {};
  spec.verify = false;
  return harness::run(courier::builtin_registry(), spec).values;
}

TEST(MailboxThreads, DegreeAndCcEqualTheSequentialEngineAsReadAndOwnerPlaced) {
  for (const std::string algorithm : {"degree", "cc"}) {
    const harness::Values expected = sequential(algorithm);
    for (const std::string input : {"as-read", "owner-placed"})
      for (int ranks : {1, 2, 3, 4})
        for (unsigned threads : {1u, 2u}) check(algorithm, ranks, threads, input, &expected);
    check(algorithm, 2, 3, "as-read", &expected);
  }
}

TEST(MailboxThreads, SpmvPassesItsVerificationAsReadAndOwnerPlaced) {
  for (const std::string input : {"as-read", "owner-placed"})
    for (int ranks : {1, 2, 4})
      for (unsigned threads : {1u, 2u}) check("spmv", ranks, threads, input, nullptr);
}

}  // namespace

}  // namespace mailbox_threads_test
