#pragma once
// The MPI channels by name, for --channel: "mpi-probe" or "mpi-rma".
#include <mpi.h>

#include <array>
#include <memory>
#include <string_view>

#include "courier/sync/channel.hpp"

namespace courier::sync {

inline constexpr std::array<std::string_view, 2> mpi_channels{"mpi-probe", "mpi-rma"};

// Collective over `comm`. Throws InputError for any other name.
std::unique_ptr<Channel> make_mpi_channel(std::string_view name, MPI_Comm comm);

}  // namespace courier::sync
