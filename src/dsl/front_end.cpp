#include "courier/dsl/front_end.hpp"

#include <fmt/format.h>

#include <fstream>
#include <sstream>
#include <utility>

#include "courier/core/error.hpp"
#include "courier/dsl/checker.hpp"
#include "courier/dsl/parser.hpp"

namespace courier::dsl {

Program front_end(std::string_view source, std::string file) {
  Program program = parse(source, std::move(file));
  check(program);
  return program;
}

std::string read_program(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw InputError(fmt::format("{}: cannot open the program (does it exist, and may we read it?)", path.string()));
  }
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

Program front_end(const std::filesystem::path& path) { return front_end(read_program(path), path.string()); }

}  // namespace courier::dsl
