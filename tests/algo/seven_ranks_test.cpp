// Every algorithm on 7 ranks (more ranks than a 2D grid can square, and than cores), for the
// vertex cuts where every label travels both ways: still the reference's results.
#include "algo/every_algorithm.hpp"

namespace seven_ranks_test {

using namespace courier;
using courier::test_support::Channel;

TEST(AlgoSevenRanks, EveryAlgorithmEqualsReference) {
  for (dist::Policy policy : {dist::Policy::cvc, dist::Policy::hash})
    test_support::expect_every_algorithm_equals_reference(policy, 7, Channel::loopback);
}

}  // namespace seven_ranks_test
