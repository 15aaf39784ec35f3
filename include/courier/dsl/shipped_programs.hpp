#pragma once
// The programs shipped with Courier (dsl/programs/*.sp: bfs, bc, cc, pagerank, sssp, tc), built
// into the library as text so that tools and tests have them without finding the source tree.
#include <span>
#include <string_view>

namespace courier::dsl {

struct ShippedProgram {
  std::string_view name;    // "sssp"
  std::string_view file;    // "dsl/programs/sssp.sp", for messages
  std::string_view source;  // the program's text
};

// In order of name.
std::span<const ShippedProgram> shipped_programs();
// The program called `name`, or null.
const ShippedProgram* find_shipped_program(std::string_view name);

}  // namespace courier::dsl
