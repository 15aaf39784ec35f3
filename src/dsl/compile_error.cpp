#include "courier/dsl/compile_error.hpp"

#include <fmt/format.h>

#include <utility>

namespace courier::dsl {

CompileError::CompileError(std::string file, Location location, std::string message)
    : InputError(fmt::format("{}:{}:{}: {}", file, location.line, location.column, message)),
      file_(std::move(file)),
      location_(location),
      message_(std::move(message)) {}

}  // namespace courier::dsl
