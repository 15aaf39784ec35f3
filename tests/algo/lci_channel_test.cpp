// The algorithms through the real lci channel (Courier's runtime on the local transport, ranks as
// threads, the progress mode chosen for this machine) give the reference's results, as on the
// test double.
#include "algo/every_algorithm.hpp"

namespace lci_channel_test {

using namespace courier;
using courier::test_support::Channel;

class ThroughLciChannel : public ::testing::TestWithParam<std::tuple<dist::Policy, int>> {};

TEST_P(ThroughLciChannel, EveryAlgorithmEqualsReference) {
  const auto [policy, ranks] = GetParam();
  test_support::expect_every_algorithm_equals_reference(policy, ranks, Channel::lci);
}

INSTANTIATE_TEST_SUITE_P(PoliciesAndRanks, ThroughLciChannel,
                         ::testing::Combine(::testing::Values(dist::Policy::oec, dist::Policy::iec, dist::Policy::cvc,
                                                              dist::Policy::hash),
                                            ::testing::Values(1, 2, 3, 4)),
                         [](const auto& info) {
                           return std::string(dist::to_string(std::get<0>(info.param))) + "_" +
                                  std::to_string(std::get<1>(info.param)) + "ranks";
                         });

}  // namespace lci_channel_test
