#pragma once
// Turns an MPI return code into a courier::Error naming the call and MPI's own explanation.
// Device communicators use MPI_ERRORS_RETURN, so failures arrive here instead of aborting.
#include <mpi.h>

#include <string_view>

namespace courier::net::detail {

[[noreturn]] void throw_mpi_error(int code, std::string_view call);

inline void mpi_check(int code, std::string_view call) {
  if (code != MPI_SUCCESS) throw_mpi_error(code, call);
}

}  // namespace courier::net::detail
