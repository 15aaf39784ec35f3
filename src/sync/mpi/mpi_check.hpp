#pragma once
// MPI calls return error codes; Courier throws. The message names the call and MPI's own words.
#include <mpi.h>

#include <limits>
#include <string>

#include "courier/core/error.hpp"

namespace courier::sync::mpi {

inline void check(int code, const char* call) {
  if (code == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(code, text, &length);
  throw Error(std::string("sync/mpi: ") + call + " failed: " + std::string(text, static_cast<std::size_t>(length)));
}

// MPI counts are int: a message beyond 2 GiB must be split by the caller (the substrate never
// comes close: one message carries one peer's share of one label).
inline int count_of(std::size_t bytes, const char* what) {
  if (bytes > static_cast<std::size_t>(std::numeric_limits<int>::max()))
    throw Error(std::string("sync/mpi: ") + what + " of " + std::to_string(bytes) +
                " bytes is beyond MPI's int count; use fewer vertices per rank or more ranks");
  return static_cast<int>(bytes);
}

}  // namespace courier::sync::mpi
