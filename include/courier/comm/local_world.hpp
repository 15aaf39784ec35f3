#pragma once
// A world of ranks as threads of this process, each with its own Runtime on the local transport:
//
//   comm::run_local(3, [](comm::Runtime& rt) { ... rank rt.rank() of 3 ... });
//
// Each rank's thread builds its runtime, runs `body`, then shuts the runtime down (collective).
// The first exception thrown by any rank is rethrown here after all threads finished; a rank
// that throws still shuts down so the others do not wait for it.
//
// Before any thread starts, the rank count is checked against max_local_ranks and the memory the
// ranks' communication state may take against the machine (check_memory: an InputError with the
// estimate). The ranks' packet pools share a budget (local_runtime_options). With COURIER_CHAOS=SEED
// set, the transport runs in chaos mode (net::LocalOptions::chaos) and each runtime is starved
// too: a pool of 2 packets and 2 rendezvous slots.
#include <functional>

#include "courier/comm/runtime.hpp"
#include "courier/net/local.hpp"

namespace courier::comm {

inline constexpr rank_t max_local_ranks = 4096;

// The options each rank's runtime gets in a world of `ranks` ranks as threads: `options` with
// the packet pool capped so that all ranks' pools together stay near 256 MiB (at least 64 packets
// a rank; 2 in chaos mode).
RuntimeOptions local_runtime_options(rank_t ranks, RuntimeOptions options, const net::LocalOptions& local);

void run_local(rank_t ranks, const std::function<void(Runtime&)>& body, RuntimeOptions options = {},
               net::LocalOptions local = {});

}  // namespace courier::comm
