#include "courier/core/error.hpp"

#include <exception>
#include <new>

#include <fmt/format.h>

namespace courier {

void throw_input_error(std::string_view file, std::uint64_t line, std::string_view what) {
  if (line == 0) throw InputError(fmt::format("{}: {}", file, what));
  throw InputError(fmt::format("{}:{}: {}", file, line, what));
}

std::string describe_current_exception() {
  const std::exception_ptr current = std::current_exception();
  if (!current) return "";
  try {
    std::rethrow_exception(current);
  } catch (const std::bad_alloc&) {
    return "out of memory (std::bad_alloc)";
  } catch (const std::exception& e) {
    return e.what();
  } catch (...) {
    return "unknown error";
  }
}

}  // namespace courier
