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

namespace {

std::string escaped(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '\\' || c == '"') out += '\\';
    out += c;
  }
  return out;
}

}  // namespace

void Writer::directive(Location where) { out_ += fmt::format("#line {} \"{}\"\n", where.line, escaped(file_)); }

std::string Writer::place(Location where) const {
  return fmt::format("\"{}:{}:{}\"", escaped(file_), where.line, where.column);
}

}  // namespace courier::dsl::codegen
