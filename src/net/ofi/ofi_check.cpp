#include "ofi_check.hpp"

#include <fmt/format.h>
#include <rdma/fabric.h>
#include <rdma/fi_errno.h>

#include "courier/core/error.hpp"
#include "ofi_library.hpp"

namespace courier::net::detail {

void throw_ofi_error(ssize_t code, std::string_view call) {
  throw Error(fmt::format("{} failed: {} (libfabric error {}); `fi_info -l` lists the providers "
                          "here, FI_PROVIDER or OfiDeviceOptions::provider picks one",
                          call, ofi_library().strerror(static_cast<int>(-code)), -code));
}

}  // namespace courier::net::detail
