#pragma once
// The process's hwloc topology, loaded once and kept (loading reads /sys: milliseconds), shared by
// what reads the machine (machine.cpp) and what pins threads (placement.cpp). Null if hwloc
// cannot load one.
#include <hwloc.h>

namespace courier {

hwloc_topology_t process_topology();

}  // namespace courier
