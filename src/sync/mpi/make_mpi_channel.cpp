#include <string>

#include "courier/core/error.hpp"
#include "courier/sync/mpi_channel.hpp"
#include "courier/sync/mpi_probe_channel.hpp"
#include "courier/sync/mpi_rma_channel.hpp"

namespace courier::sync {

std::unique_ptr<Channel> make_mpi_channel(std::string_view name, MPI_Comm comm) {
  if (name == "mpi-probe") return MpiProbeChannel::create(comm);
  if (name == "mpi-rma") return MpiRmaChannel::create(comm);
  throw InputError("unknown MPI channel '" + std::string(name) + "': use mpi-probe or mpi-rma");
}

}  // namespace courier::sync
