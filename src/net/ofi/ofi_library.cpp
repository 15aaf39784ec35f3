#include "ofi_library.hpp"

#include <dlfcn.h>
#include <fmt/format.h>

#include "courier/core/error.hpp"

namespace courier::net::detail {
namespace {

// COURIER_FABRIC_SONAME is the soname of the libfabric found at build time (CMake).
OfiLibrary load() {
  void* handle = dlopen(COURIER_FABRIC_SONAME, RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    throw Error(
        fmt::format("the ofi transport needs libfabric, which did not load: {}; install it "
                    "(Debian: libfabric1) or choose another transport (--transport mpi)",
                    dlerror()));
  }
  auto symbol = [handle](const char* name) {
    void* address = dlsym(handle, name);
    if (!address) {
      throw Error(
          fmt::format("{} has no {}: it is older than the libfabric Courier was built "
                      "with; install that one or choose another transport",
                      COURIER_FABRIC_SONAME, name));
    }
    return address;
  };
  OfiLibrary library{};
  library.getinfo = reinterpret_cast<decltype(library.getinfo)>(symbol("fi_getinfo"));
  library.freeinfo = reinterpret_cast<decltype(library.freeinfo)>(symbol("fi_freeinfo"));
  library.dupinfo = reinterpret_cast<decltype(library.dupinfo)>(symbol("fi_dupinfo"));
  library.fabric = reinterpret_cast<decltype(library.fabric)>(symbol("fi_fabric"));
  library.strerror = reinterpret_cast<decltype(library.strerror)>(symbol("fi_strerror"));
  return library;
}

}  // namespace

const OfiLibrary& ofi_library() {
  static const OfiLibrary library = load();  // a throw leaves it to the next call to try again
  return library;
}

}  // namespace courier::net::detail
