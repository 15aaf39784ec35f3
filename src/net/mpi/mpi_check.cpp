#include "courier/net/mpi_check.hpp"

#include <fmt/format.h>

#include <limits>

#include "courier/core/error.hpp"

namespace courier::net {

void throw_mpi_error(int code, std::string_view call) {
  char text[MPI_MAX_ERROR_STRING] = {};
  int length = 0;
  if (MPI_Error_string(code, text, &length) != MPI_SUCCESS) length = 0;
  throw Error(fmt::format("{} failed: {} (MPI error {}); check the MPI launch (mpirun/srun) and "
                          "that every rank runs the same program",
                          call, std::string_view(text, static_cast<std::size_t>(length)), code));
}

int mpi_count(std::size_t bytes, std::string_view what) {
  if (bytes > static_cast<std::size_t>(std::numeric_limits<int>::max()))
    throw Error(fmt::format("{} of {} bytes is beyond MPI's int count; use fewer vertices per rank or more ranks", what,
                            bytes));
  return static_cast<int>(bytes);
}

}  // namespace courier::net
