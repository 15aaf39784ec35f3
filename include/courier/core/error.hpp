#pragma once
// Courier's exceptions. Every message says what went wrong, where, and what to do about it; the
// command line prints it and exits non-zero.
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

namespace courier {

class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Input a user handed us is wrong (a malformed file, an id out of range, a bad option).
class InputError : public Error {
 public:
  using Error::Error;
};

// "FILE:LINE: what" for text inputs; line 0 means the file as a whole (a binary file, a header).
[[noreturn]] void throw_input_error(std::string_view file, std::uint64_t line, std::string_view what);

// Inside a catch block: what the exception being handled says, for a message to a user (what()
// of a std::exception, "out of memory (std::bad_alloc)", or "unknown error"). Outside one: "".
std::string describe_current_exception();

}  // namespace courier
