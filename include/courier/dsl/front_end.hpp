#pragma once
// The whole front end in one call: lex, parse and check. What code generation and the analyses
// start from.
#include <filesystem>
#include <string>
#include <string_view>

#include "courier/dsl/program.hpp"

namespace courier::dsl {

// The text of the program at `path`; an InputError if it cannot be read.
std::string read_program(const std::filesystem::path& path);

// `file` names the program in messages.
Program front_end(std::string_view source, std::string file);
// Reads `path` (an InputError if it cannot) and runs the front end on it.
Program front_end(const std::filesystem::path& path);

}  // namespace courier::dsl
