// The routing tables alone, over many topologies: every route reaches its destination in at most
// the scheme's number of hops, crossing nodes at most once, and every broadcast tree reaches each
// rank but the origin exactly once, with the remote message counts section III gives.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <tuple>
#include <vector>

#include "courier/core/error.hpp"
#include "courier/mailbox/routes.hpp"

namespace routes_test {

namespace mb = courier::mailbox;

namespace {

struct Case {
  int ranks;
  mb::Layout layout;
};

const std::vector<Case> cases = {{1, {1, 1}}, {2, {1, 2}}, {2, {2, 1}}, {4, {2, 2}}, {8, {4, 2}}, {8, {2, 4}},
                                 {7, {2, 4}}, {5, {3, 2}}, {9, {3, 4}}, {16, {4, 4}}, {13, {4, 4}}, {12, {6, 2}}};
const std::vector<mb::Routing> schemes = {mb::Routing::no_route, mb::Routing::node_local, mb::Routing::node_remote,
                                          mb::Routing::nlnr};

int max_hops(mb::Routing routing) {
  switch (routing) {
    case mb::Routing::no_route: return 1;
    case mb::Routing::node_local:
    case mb::Routing::node_remote: return 2;
    case mb::Routing::nlnr: return 3;
  }
  return 0;
}

std::vector<mb::Topology> topologies(const Case& c) {
  std::vector<mb::Topology> all;
  for (int r = 0; r < c.ranks; ++r) all.push_back(mb::Topology::from_layout(c.layout, c.ranks, r));
  return all;
}

}  // namespace

TEST(MailboxRoutes, EveryRouteArrivesWithinTheSchemesHops) {
  for (const Case& c : cases) {
    const auto ts = topologies(c);
    for (mb::Routing routing : schemes) {
      for (int from = 0; from < c.ranks; ++from) {
        for (int to = 0; to < c.ranks; ++to) {
          int at = from, hops = 0, remote_hops = 0;
          while (at != to && hops <= 3) {
            const int next = mb::detail::next_hop(ts[static_cast<std::size_t>(at)], routing, to);
            ASSERT_NE(next, at) << "stuck at " << at;
            if (!ts[0].same_node(at, next)) ++remote_hops;
            at = next;
            ++hops;
          }
          EXPECT_EQ(at, to) << mb::to_string(routing) << " " << c.ranks << " ranks as " << to_string(c.layout);
          EXPECT_LE(hops, max_hops(routing)) << mb::to_string(routing) << " " << from << "->" << to;
          EXPECT_LE(remote_hops, 1) << mb::to_string(routing) << " " << from << "->" << to;
        }
      }
    }
  }
}

TEST(MailboxRoutes, BroadcastTreesReachEveryRankOnce) {
  for (const Case& c : cases) {
    const auto ts = topologies(c);
    const int nodes = ts[0].nodes();
    for (mb::Routing routing : schemes) {
      for (int origin = 0; origin < c.ranks; ++origin) {
        std::vector<int> heard(static_cast<std::size_t>(c.ranks), 0);
        int remote = 0;
        std::vector<int> frontier{origin};
        while (!frontier.empty()) {
          const int at = frontier.back();
          frontier.pop_back();
          for (int child : mb::detail::bcast_children(ts[static_cast<std::size_t>(at)], routing, origin)) {
            ++heard[static_cast<std::size_t>(child)];
            if (!ts[0].same_node(at, child)) ++remote;
            frontier.push_back(child);
          }
        }
        for (int r = 0; r < c.ranks; ++r) {
          EXPECT_EQ(heard[static_cast<std::size_t>(r)], r == origin ? 0 : 1)
              << mb::to_string(routing) << " origin " << origin << " rank " << r << ", " << c.ranks << " as "
              << to_string(c.layout);
        }
        // Section III-C/D: node remote and NLNR send one remote copy per other node.
        if (routing == mb::Routing::node_remote || routing == mb::Routing::nlnr) {
          EXPECT_EQ(remote, nodes - 1);
        }
        if (routing == mb::Routing::no_route) {
          EXPECT_EQ(remote, c.ranks - ts[0].cores_on(ts[0].node_of(origin)));
        }
      }
    }
  }
}

TEST(MailboxRoutes, NlnrUsesOneChannelPerPairOfNodes) {
  // Section III-D: all traffic from node a to node b crosses between one pair of cores.
  const mb::Layout layout{4, 2};
  const int ranks = 8;
  std::vector<mb::Topology> ts;
  for (int r = 0; r < ranks; ++r) ts.push_back(mb::Topology::from_layout(layout, ranks, r));
  std::map<std::pair<int, int>, std::set<std::pair<int, int>>> channels;
  for (int from = 0; from < ranks; ++from) {
    for (int to = 0; to < ranks; ++to) {
      int at = from;
      while (at != to) {
        const int next = mb::detail::next_hop(ts[static_cast<std::size_t>(at)], mb::Routing::nlnr, to);
        if (!ts[0].same_node(at, next)) channels[{ts[0].node_of(at), ts[0].node_of(next)}].insert({at, next});
        at = next;
      }
    }
  }
  EXPECT_EQ(channels.size(), 12u);  // 4 nodes, ordered pairs
  for (const auto& [pair, links] : channels) EXPECT_EQ(links.size(), 1u) << pair.first << "->" << pair.second;
}

TEST(MailboxTopology, ParsesLayoutsAndRejectsBadOnes) {
  const mb::Layout l = mb::parse_layout("4x2");
  EXPECT_EQ(l.nodes, 4);
  EXPECT_EQ(l.cores_per_node, 2);
  EXPECT_THROW(mb::parse_layout("4"), courier::InputError);
  EXPECT_THROW(mb::parse_layout("0x2"), courier::InputError);
  EXPECT_THROW(mb::parse_layout("ax2"), courier::InputError);
  EXPECT_THROW(mb::Topology::from_layout({2, 4}, 9, 0), courier::InputError);  // too many ranks
  EXPECT_THROW(mb::Topology::from_layout({3, 4}, 8, 0), courier::InputError);  // an empty node
  const mb::Topology t = mb::Topology::from_layout({2, 4}, 7, 6);
  EXPECT_EQ(t.nodes(), 2);
  EXPECT_EQ(t.cores_on(1), 3);
  EXPECT_EQ(t.node(), 1);
  EXPECT_EQ(t.core(), 2);
  EXPECT_EQ(t.rank_at(1, 3), 4);  // offset 3 wraps on the 3-rank node
}

TEST(MailboxTopology, FromNodesRenumbersByLowestRank) {
  const mb::Topology t = mb::Topology::from_nodes({7, 3, 7, 3, 9}, 3);
  EXPECT_EQ(t.nodes(), 3);
  EXPECT_EQ(t.node_of(0), 0);
  EXPECT_EQ(t.node_of(1), 1);
  EXPECT_EQ(t.node_of(4), 2);
  EXPECT_EQ(t.core(), 1);
  EXPECT_EQ(t.cores_per_node(), 2);
}

TEST(MailboxRouting, ParsesNames) {
  EXPECT_EQ(mb::parse_routing("NLNR"), mb::Routing::nlnr);
  EXPECT_EQ(mb::parse_routing("node-local"), mb::Routing::node_local);
  EXPECT_EQ(mb::parse_routing("node_remote"), mb::Routing::node_remote);
  EXPECT_EQ(mb::parse_routing("noroute"), mb::Routing::no_route);
  EXPECT_THROW(mb::parse_routing("fast"), courier::InputError);
}

}  // namespace routes_test
