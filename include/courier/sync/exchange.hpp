#pragma once
// All-to-all exchanges over a Channel, for set-up work that is not master/mirror sync: messages of
// any size to every rank (sizes travel first, so a channel that must size its buffers in advance,
// as mpi-rma does, can reserve), and connecting a partition's mirrors to their masters.
#include <vector>

#include "courier/dist/local_graph.hpp"
#include "courier/sync/channel.hpp"

namespace courier::sync {

// outgoing[r] goes to rank r; returns what each rank sent here, by source. Collective.
std::vector<Bytes> exchange_all(Channel& channel, std::vector<Bytes> outgoing);

// Tells every owner which of its masters this rank mirrors, so both sides agree on the order of
// their mirror lists (LocalGraph::set_mirrors_requested_by). Collective.
void connect_mirrors(dist::LocalGraph& graph, Channel& channel);

}  // namespace courier::sync
