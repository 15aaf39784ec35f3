#include "courier/mailbox/routes.hpp"

namespace courier::mailbox::detail {

namespace {

// NLNR's layer offset of a node (section III-D): node n talks to node n' through core n' mod C.
int layer_core(const Topology& t, int node) { return node % t.cores_per_node(); }

// Which rank of `from_node` sends a node-local broadcast on to remote rank `target` (III-B): the
// one with target's core offset, taken modulo from_node's size, so each remote rank hears once.
rank_t node_local_sender(const Topology& t, int from_node, rank_t target) {
  return t.rank_at(from_node, t.core_of(target));
}

void others_on_node(const Topology& t, int node, rank_t except, std::vector<rank_t>& out) {
  for (rank_t r : t.ranks_on(node)) {
    if (r != except) out.push_back(r);
  }
}

}  // namespace

rank_t next_hop(const Topology& t, Routing routing, rank_t dest) {
  const rank_t me = t.rank();
  if (routing == Routing::no_route || t.same_node(me, dest)) return dest;
  const int here = t.node();
  const int there = t.node_of(dest);
  switch (routing) {
    case Routing::node_local: {
      // Local hop to the core with dest's offset; that core sends remotely to dest itself.
      const rank_t intermediary = t.rank_at(here, t.core_of(dest));
      return intermediary == me ? dest : intermediary;
    }
    case Routing::node_remote:
      // Remote hop to the core of dest's node with this rank's offset; it delivers locally.
      return t.rank_at(there, t.core());
    case Routing::nlnr: {
      // Local hop to this node's channel to `there`; remote hop to `there`'s channel from here.
      const rank_t channel = t.rank_at(here, layer_core(t, there));
      return channel == me ? t.rank_at(there, layer_core(t, here)) : channel;
    }
    case Routing::no_route:
      break;
  }
  return dest;
}

std::vector<rank_t> bcast_children(const Topology& t, Routing routing, rank_t origin) {
  std::vector<rank_t> out;
  const rank_t me = t.rank();
  const int here = t.node();
  const int home = t.node_of(origin);  // the origin's node
  switch (routing) {
    case Routing::no_route:
      if (me == origin) {
        for (rank_t r = 0; r < t.ranks(); ++r) {
          if (r != me) out.push_back(r);
        }
      }
      break;
    case Routing::node_local:
      // The origin copies to its node; every rank of the origin's node sends to the remote ranks
      // with its core offset.
      if (here != home) break;
      if (me == origin) others_on_node(t, home, me, out);
      for (rank_t r = 0; r < t.ranks(); ++r) {
        if (t.node_of(r) != home && node_local_sender(t, home, r) == me) out.push_back(r);
      }
      break;
    case Routing::node_remote:
      // The origin sends once to every other node (to its own core offset there) and to its own
      // node; each remote receiver copies to its node.
      if (me == origin) {
        others_on_node(t, home, me, out);
        for (int n = 0; n < t.nodes(); ++n) {
          if (n != home) out.push_back(t.rank_at(n, t.core_of(origin)));
        }
      } else if (here != home && me == t.rank_at(here, t.core_of(origin))) {
        others_on_node(t, here, me, out);
      }
      break;
    case Routing::nlnr:
      // The origin copies to its node; each core of it sends to the nodes of its layer offset
      // (one remote message per node); the receiving channel core copies to its node.
      if (here == home) {
        if (me == origin) others_on_node(t, home, me, out);
        for (int n = 0; n < t.nodes(); ++n) {
          if (n != home && t.rank_at(home, layer_core(t, n)) == me) out.push_back(t.rank_at(n, layer_core(t, home)));
        }
      } else if (me == t.rank_at(here, layer_core(t, home))) {
        others_on_node(t, here, me, out);
      }
      break;
  }
  return out;
}

}  // namespace courier::mailbox::detail
