#include "courier/graph/csr_rows.hpp"

#include <variant>

namespace courier::graph {

void CsrRows::release(edge_t from, edge_t to) const {
  if (!file || from >= to) return;
  file->release(targets.data() + from, (to - from) * sizeof(vertex_t));
  std::visit(
      [&](const auto& w) {
        if constexpr (!std::is_same_v<std::decay_t<decltype(w)>, std::monostate>)
          file->release(w.data() + from, (to - from) * sizeof(w[0]));
      },
      weights);
}

void CsrRows::release_all() const {
  if (file) file->release(file->data(), file->size());
}

}  // namespace courier::graph
