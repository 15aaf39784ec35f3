#pragma once
// Turns a negative libfabric return code into a courier::Error naming the call and libfabric's
// own explanation.
#include <sys/types.h>

#include <string_view>

namespace courier::net::detail {

[[noreturn]] void throw_ofi_error(ssize_t code, std::string_view call);

inline void ofi_check(ssize_t code, std::string_view call) {
  if (code < 0) throw_ofi_error(code, call);
}

}  // namespace courier::net::detail
