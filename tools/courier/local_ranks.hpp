#pragma once
// Ranks as threads of this process (comm::run_local) for `courier run --ranks N`. A failure every
// rank agrees on (dist::LoadError: a bad input, a failure while partitioning) ends every rank's
// body alike and is rethrown here. Any other failure of one rank may leave the others waiting for
// it in a collective or an exchange forever, so it ends the whole process at once with that rank's
// error and exit status 1, as MPI_Abort ends a run under mpirun. Nothing is half written: output
// and JSON files are written after the ranks end.
#include <functional>

#include "courier/comm/runtime.hpp"

namespace courier::cli {

void run_local_ranks(int ranks, const std::function<void(comm::Runtime&)>& body, comm::RuntimeOptions options = {});

}  // namespace courier::cli
