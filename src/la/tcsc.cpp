#include "courier/la/tcsc.hpp"

#include <algorithm>
#include <numeric>
#include <utility>

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

Tcsc::Tcsc(std::vector<std::uint32_t> columns, std::vector<std::uint64_t> pointers, std::vector<std::uint32_t> rows,
           std::vector<float> values)
    : columns_(std::move(columns)), pointers_(std::move(pointers)), rows_(std::move(rows)), values_(std::move(values)) {
  if (pointers_.empty()) pointers_.push_back(0);
}

Tcsc Tcsc::turned(bool with_values) const {
  const std::uint32_t height = rows_.empty() ? 0 : *std::max_element(rows_.begin(), rows_.end()) + 1;
  const bool weighted = with_values && !values_.empty();
  TcscBuilder builder(height, weighted);
  for (std::uint32_t r : rows_) builder.count(r);
  builder.allocate();
  // Columns ascending, so each turned column (a row) gets its entries ascending: no sort needed.
  for (std::size_t k = 0; k < columns_.size(); ++k)
    for (std::uint64_t e = pointers_[k]; e < pointers_[k + 1]; ++e)
      builder.place(columns_[k], rows_[e], weighted ? values_[e] : 1.0f);
  return builder.finish();
}

std::pair<Tcsc, Tcsc> Tcsc::split(std::span<const std::uint8_t> out) const {
  struct Part {
    std::vector<std::uint32_t> columns, rows;
    std::vector<std::uint64_t> pointers{0};
    std::vector<float> values;
  } parts[2];
  std::size_t kept = 0;
  for (std::uint32_t r : rows_) kept += out[r] == 0;
  for (Part& part : parts) {
    const std::size_t size = &part == parts ? kept : rows_.size() - kept;
    part.rows.reserve(size);
    if (!values_.empty()) part.values.reserve(size);
  }
  for (std::size_t k = 0; k < columns_.size(); ++k) {
    for (std::uint64_t e = pointers_[k]; e < pointers_[k + 1]; ++e) {
      Part& part = parts[out[rows_[e]] != 0];
      part.rows.push_back(rows_[e]);
      if (!values_.empty()) part.values.push_back(values_[e]);
    }
    for (Part& part : parts)
      if (part.rows.size() > part.pointers.back())
        part.columns.push_back(columns_[k]), part.pointers.push_back(part.rows.size());
  }
  const auto made = [](Part& p) {
    p.columns.shrink_to_fit();
    p.pointers.shrink_to_fit();
    return Tcsc(std::move(p.columns), std::move(p.pointers), std::move(p.rows), std::move(p.values));
  };
  return {made(parts[0]), made(parts[1])};
}

std::pair<Tcsc, Tcsc> Tcsc::split_columns(std::span<const std::uint8_t> chosen) const {
  Tcsc parts[2];
  for (Tcsc& part : parts) part.pointers_.push_back(0);
  for (std::size_t k = 0; k < columns_.size(); ++k) {
    Tcsc& part = parts[chosen[columns_[k]] != 0];
    part.columns_.push_back(columns_[k]);
    part.rows_.insert(part.rows_.end(), rows_.begin() + pointers_[k], rows_.begin() + pointers_[k + 1]);
    if (!values_.empty())
      part.values_.insert(part.values_.end(), values_.begin() + pointers_[k], values_.begin() + pointers_[k + 1]);
    part.pointers_.push_back(part.rows_.size());
  }
  for (Tcsc& part : parts) {
    part.columns_.shrink_to_fit(), part.pointers_.shrink_to_fit();
    part.rows_.shrink_to_fit(), part.values_.shrink_to_fit();
  }
  return {std::move(parts[0]), std::move(parts[1])};
}

std::size_t Tcsc::bytes() const {
  return columns_.capacity() * sizeof(std::uint32_t) + pointers_.capacity() * sizeof(std::uint64_t) +
         rows_.capacity() * sizeof(std::uint32_t) + values_.capacity() * sizeof(float);
}

void TcscBuilder::allocate() {
  std::partial_sum(next_.begin(), next_.end(), next_.begin());
  rows_.resize(next_.back());
  if (weighted_) values_.resize(next_.back());
}

Tcsc TcscBuilder::finish() {
  // place() has moved each column's slot to where the next column starts.
  std::vector<std::uint32_t> columns;
  std::vector<std::uint64_t> pointers{0};
  for (std::size_t c = 0; c + 1 < next_.size(); ++c)
    if (next_[c] != pointers.back()) columns.push_back(static_cast<std::uint32_t>(c)), pointers.push_back(next_[c]);
  next_ = {};
  columns.shrink_to_fit();
  pointers.shrink_to_fit();
  return Tcsc(std::move(columns), std::move(pointers), std::move(rows_), std::move(values_));
}

}  // namespace courier::la
