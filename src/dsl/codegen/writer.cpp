#include "writer.hpp"

#include <fmt/format.h>

namespace courier::dsl::codegen {

void Writer::line(std::string_view text) {
  out_.append(static_cast<std::size_t>(2 * depth_), ' ');
  out_ += text;
  out_ += '\n';
}

void Writer::open(std::string_view head) {
  line(head.empty() ? std::string("{") : fmt::format("{} {{", head));
  ++depth_;
}

void Writer::close(std::string_view tail) {
  --depth_;
  line(fmt::format("}}{}", tail));
}

void Writer::reopen(std::string_view middle) {
  --depth_;
  line(fmt::format("}} {} {{", middle));
  ++depth_;
}

void Writer::directive(Location where) {
  std::string escaped;
  for (char c : file_) {
    if (c == '\\' || c == '"') escaped += '\\';
    escaped += c;
  }
  out_ += fmt::format("#line {} \"{}\"\n", where.line, escaped);
}

}  // namespace courier::dsl::codegen
