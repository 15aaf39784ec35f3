#pragma once
// MPI calls return error codes; Courier throws. Every MPI call in Courier (the transports, the
// launcher's environment, the sync layer's MPI baselines) goes through mpi_check, so a failure
// names the call and MPI's own explanation. Communicators use MPI_ERRORS_RETURN, so failures
// arrive here instead of aborting.
#include <mpi.h>

#include <cstddef>
#include <string_view>

namespace courier::net {

[[noreturn]] void throw_mpi_error(int code, std::string_view call);

inline void mpi_check(int code, std::string_view call) {
  if (code != MPI_SUCCESS) throw_mpi_error(code, call);
}

// MPI counts are int: BYTES as an MPI count, or an error naming WHAT when it is beyond 2 GiB (the
// caller splits such messages or asks the user for more ranks).
int mpi_count(std::size_t bytes, std::string_view what);

}  // namespace courier::net
