#pragma once
// The routing tables of one rank, computed once from the topology (paper 001, section III): the
// next hop towards every destination, and for every broadcast origin the ranks this rank passes
// its broadcast on to. Both are functions of the topology alone, so every rank agrees on them.
#include <vector>

#include "courier/mailbox/routing.hpp"
#include "courier/mailbox/topology.hpp"

namespace courier::mailbox::detail {

// The rank this rank hands a message for `dest` to (dest itself on the last hop).
rank_t next_hop(const Topology& topology, Routing routing, rank_t dest);

// The ranks this rank sends a broadcast from `origin` to (origin == this rank: the first hops).
// Over all ranks, the tree reaches every rank but the origin exactly once.
std::vector<rank_t> bcast_children(const Topology& topology, Routing routing, rank_t origin);

}  // namespace courier::mailbox::detail
