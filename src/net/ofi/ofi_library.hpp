#pragma once
// libfabric, opened when the first ofi device is made instead of linked: Debian's libfabric links
// the PSM providers, whose library calibrates a clock when it is loaded (about 0.2 s of sleeps),
// a cost every process would pay at start-up whether it uses the ofi transport or not.
#include <rdma/fabric.h>

namespace courier::net::detail {

// libfabric's entry points that are functions; every other call is inline, through the objects
// these return.
struct OfiLibrary {
  decltype(&::fi_getinfo) getinfo;
  decltype(&::fi_freeinfo) freeinfo;
  decltype(&::fi_dupinfo) dupinfo;
  decltype(&::fi_fabric) fabric;
  decltype(&::fi_strerror) strerror;
};

// Loads libfabric on the first call (thread-safe) and keeps it for the process's life; throws
// courier::Error naming the library and the fix when it cannot be loaded.
const OfiLibrary& ofi_library();

}  // namespace courier::net::detail
