#pragma once
// All-to-all exchanges over a Channel, for set-up work that is not master/mirror sync: messages of
// any size to every rank (sizes travel first, so a channel that must size its buffers in advance,
// as mpi-rma does, can reserve), and dist/'s collective on it.
#include <vector>

#include "courier/dist/collective.hpp"
#include "courier/sync/channel.hpp"

namespace courier::sync {

// outgoing[r] goes to rank r; returns what each rank sent here, by source. Collective.
std::vector<Bytes> exchange_all(Channel& channel, std::vector<Bytes> outgoing);

// What dist/ needs to talk to the other ranks while it loads or connects a partition: the
// exchange above over `channel`, which must outlive the collective.
dist::Collective collective(Channel& channel);

}  // namespace courier::sync
