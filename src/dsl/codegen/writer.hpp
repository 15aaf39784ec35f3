#pragma once
// Writes generated C++: lines at the current indentation, blocks, and #line directives that point
// the compiler (and a reader) back at the .sp statement a line comes from.
#include <string>
#include <string_view>

#include "courier/dsl/location.hpp"

namespace courier::dsl::codegen {

class Writer {
 public:
  explicit Writer(std::string file) : file_(std::move(file)) {}

  void line(std::string_view text);
  void blank() { out_ += '\n'; }
  void open(std::string_view head);        // "head {", then one level deeper
  void close(std::string_view tail = "");  // one level up, then "}tail"
  void reopen(std::string_view middle);    // "} middle {" at the same level (else branches)
  void directive(Location where);          // #line for the statement at `where`
  std::string place(Location where) const;  // "file:line:column" as a C++ string literal
  const std::string& text() const { return out_; }

 private:
  std::string out_;
  std::string file_;
  int depth_ = 0;
};

}  // namespace courier::dsl::codegen
