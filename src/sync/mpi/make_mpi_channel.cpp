#include <string>

#include "courier/core/error.hpp"
#include "courier/sync/mpi_channel.hpp"
#include "courier/sync/mpi_probe_channel.hpp"
#include "courier/sync/mpi_rma_channel.hpp"

namespace courier::sync {

std::unique_ptr<Channel> make_mpi_channel(std::string_view layer, MPI_Comm comm) {
  if (layer == "mpi-probe") return MpiProbeChannel::create(comm);
  if (layer == "mpi-rma") return MpiRmaChannel::create(comm);
  throw InputError("unknown MPI communication layer '" + std::string(layer) + "': use mpi-probe or mpi-rma");
}

}  // namespace courier::sync
