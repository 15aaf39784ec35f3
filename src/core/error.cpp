#include "courier/core/error.hpp"

#include <fmt/format.h>

namespace courier {

void throw_input_error(std::string_view file, std::uint64_t line, std::string_view what) {
  if (line == 0) throw InputError(fmt::format("{}: {}", file, what));
  throw InputError(fmt::format("{}:{}: {}", file, line, what));
}

}  // namespace courier
