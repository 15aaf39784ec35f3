#include "courier/la/tcsc.hpp"

#include <algorithm>

namespace courier::la {

Tcsc::Tcsc(std::vector<Entry> entries, bool weighted) {
  std::sort(entries.begin(), entries.end(),
            [](const Entry& a, const Entry& b) { return a.column != b.column ? a.column < b.column : a.row < b.row; });
  rows_.reserve(entries.size());
  if (weighted) values_.reserve(entries.size());
  for (std::size_t k = 0; k < entries.size(); ++k) {
    if (k == 0 || entries[k].column != entries[k - 1].column) {
      columns_.push_back(entries[k].column);
      pointers_.push_back(k);
    }
    rows_.push_back(entries[k].row);
    if (weighted) values_.push_back(entries[k].value);
  }
  pointers_.push_back(entries.size());
  columns_.shrink_to_fit();
  pointers_.shrink_to_fit();
}

std::size_t Tcsc::bytes() const {
  return columns_.capacity() * sizeof(std::uint32_t) + pointers_.capacity() * sizeof(std::uint64_t) +
         rows_.capacity() * sizeof(std::uint32_t) + values_.capacity() * sizeof(float);
}

}  // namespace courier::la
