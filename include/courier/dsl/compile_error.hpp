#pragma once
// The one error of the language's front end: what() reads "FILE:LINE:COLUMN: MESSAGE", and the
// parts stay available so that tests and tools can check where and what without parsing text.
#include <string>

#include "courier/core/error.hpp"
#include "courier/dsl/location.hpp"

namespace courier::dsl {

class CompileError : public InputError {
 public:
  CompileError(std::string file, Location location, std::string message);

  const std::string& file() const { return file_; }
  Location location() const { return location_; }
  const std::string& message() const { return message_; }  // without the "FILE:LINE:COLUMN: " prefix

 private:
  std::string file_;
  Location location_;
  std::string message_;
};

}  // namespace courier::dsl
