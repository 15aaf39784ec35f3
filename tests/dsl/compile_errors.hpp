#pragma once
// For tests of malformed programs: runs one stage of the front end on a program that must fail and
// hands back its CompileError, so that a test can assert the exact line, column and message.
#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "courier/dsl/compile_error.hpp"

namespace courier::dsl::testing {

template <class Stage>
CompileError error_of(Stage stage, std::string_view source) {
  try {
    stage(source);
  } catch (const CompileError& e) {
    return e;
  }
  ADD_FAILURE() << "no error for:\n" << source;
  return CompileError("", {}, "(no error)");
}

// "LINE:COLUMN: MESSAGE", to compare in one assertion with a readable difference.
inline std::string where_and_what(const CompileError& e) {
  return std::to_string(e.location().line) + ":" + std::to_string(e.location().column) + ": " + e.message();
}

}  // namespace courier::dsl::testing
