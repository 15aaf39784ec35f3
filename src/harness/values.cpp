#include "courier/harness/values.hpp"

#include <fmt/format.h>

#include "courier/core/atomic_file.hpp"
#include "courier/graph/reference.hpp"

namespace courier::harness {

void write_values(const std::string& path, const Values& values) {
  AtomicFile file(path);
  fmt::memory_buffer text;
  auto flush_when_large = [&] {
    if (text.size() < (1u << 20)) return;
    file.write(text.data(), text.size());
    text.clear();
  };
  std::visit(
      [&](const auto& per_vertex) {
        for (std::size_t v = 0; v < per_vertex.size(); ++v) {
          const auto value = per_vertex[v];
          if constexpr (std::is_same_v<std::decay_t<decltype(value)>, double>) {
            fmt::format_to(std::back_inserter(text), "{} {}\n", v, value);
          } else if (value == graph::reference::kUnreached) {
            fmt::format_to(std::back_inserter(text), "{} inf\n", v);
          } else {
            fmt::format_to(std::back_inserter(text), "{} {}\n", v, value);
          }
          flush_when_large();
        }
      },
      values);
  file.write(text.data(), text.size());
  file.commit();
}

}  // namespace courier::harness
