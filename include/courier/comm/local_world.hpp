#pragma once
// A world of ranks as threads of this process, each with its own Runtime on the local transport:
//
//   comm::run_local(3, [](comm::Runtime& rt) { ... rank rt.rank() of 3 ... });
//
// Each rank's thread builds its runtime, runs `body`, then shuts the runtime down (collective).
// The first exception thrown by any rank is rethrown here after all threads finished; a rank
// that throws still shuts down so the others do not wait for it.
#include <functional>

#include "courier/comm/runtime.hpp"
#include "courier/net/local.hpp"

namespace courier::comm {

void run_local(rank_t ranks, const std::function<void(Runtime&)>& body, RuntimeOptions options = {},
               net::LocalOptions local = {});

}  // namespace courier::comm
