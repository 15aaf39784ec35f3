#pragma once
// The MPI communication layers by name, for --comm: "mpi-probe" or "mpi-rma".
#include <mpi.h>

#include <array>
#include <memory>
#include <string_view>

#include "courier/sync/channel.hpp"

namespace courier::sync {

inline constexpr std::array<std::string_view, 2> mpi_layers{"mpi-probe", "mpi-rma"};

// Collective over `comm`. Throws InputError for any other name.
std::unique_ptr<Channel> make_mpi_channel(std::string_view layer, MPI_Comm comm);

}  // namespace courier::sync
