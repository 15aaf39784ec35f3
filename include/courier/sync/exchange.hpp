#pragma once
// All-to-all exchanges over a Channel, for set-up work that is not master/mirror sync: messages of
// any size to every rank (sizes travel first, so a channel that must size its buffers in advance,
// as mpi-rma does, can reserve), and dist/'s collective on it.
#include <functional>
#include <span>
#include <vector>

#include "courier/dist/collective.hpp"
#include "courier/sync/channel.hpp"

namespace courier::sync {

// outgoing[r] goes to rank r; returns what each rank sent here, by source. Collective.
std::vector<Bytes> exchange_all(Channel& channel, std::vector<Bytes> outgoing);

// The same without copies out: outgoing[r] is copied into the channel's buffer for rank r (the
// caller keeps its data), and arrived(source, bytes) reads each peer's message in the channel's
// buffer, before it goes back; nothing is called for this rank's own view. For results gathered
// to one rank, where every copy of a large message is mostly page faults. Collective.
using Arrived = std::function<void(rank_t source, std::span<const std::byte> bytes)>;
void exchange_all(Channel& channel, std::span<const std::span<const std::byte>> outgoing, const Arrived& arrived);

// What dist/ needs to talk to the other ranks while it loads or connects a partition: the
// exchange above over `channel`, which must outlive the collective.
dist::Collective collective(Channel& channel);

}  // namespace courier::sync
