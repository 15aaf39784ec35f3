#include "courier/harness/values.hpp"

#include <fmt/format.h>

#include "courier/core/atomic_file.hpp"
#include "courier/graph/reference.hpp"

namespace courier::harness {

void widen(Values& values) {
  const auto* narrow = std::get_if<std::vector<std::uint32_t>>(&values);
  if (narrow == nullptr) return;
  std::vector<std::uint64_t> wide(narrow->size());
  for (std::size_t v = 0; v < wide.size(); ++v)
    wide[v] = (*narrow)[v] == kNarrowUnreached ? graph::reference::kUnreached : (*narrow)[v];
  values = std::move(wide);
}

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
          } else if (value == static_cast<decltype(value)>(graph::reference::kUnreached)) {  // either width
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
