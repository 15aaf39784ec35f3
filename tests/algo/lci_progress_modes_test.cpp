// The algorithms through the lci channel in each progress mode: with a progress thread per rank,
// and with none, where only the compute threads that wait for messages progress the runtime
// (one thread per rank, and three, where the others compute meanwhile). Each gives the
// reference's results and none hangs (the test's timeout).
#include "algo/every_algorithm.hpp"

namespace lci_progress_modes_test {

using namespace courier;
using courier::test_support::Channel;

class LciProgressModes : public ::testing::TestWithParam<std::tuple<Channel, int, unsigned>> {};

TEST_P(LciProgressModes, EveryAlgorithmEqualsReference) {
  const auto [channel, ranks, threads] = GetParam();
  test_support::expect_every_algorithm_equals_reference(dist::Policy::cvc, ranks, channel, threads);
}

INSTANTIATE_TEST_SUITE_P(ModesRanksThreads, LciProgressModes,
                         ::testing::Combine(::testing::Values(Channel::lci_thread, Channel::lci_explicit),
                                            ::testing::Values(2, 4), ::testing::Values(1u, 3u)),
                         [](const auto& info) {
                           return std::string(std::get<0>(info.param) == Channel::lci_thread ? "thread" : "explicit") +
                                  "_" + std::to_string(std::get<1>(info.param)) + "ranks_" +
                                  std::to_string(std::get<2>(info.param)) + "threads";
                         });

}  // namespace lci_progress_modes_test
