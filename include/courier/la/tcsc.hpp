#pragma once
// Tcsc: one tile of the matrix in Triply Compressed Sparse Column form (paper 003, section 7.4):
// only the non-empty columns are kept, so a tile's memory is proportional to its non-zeros and
// never to its width. Column c of the tile is columns[k] for some k, its entries are
// rows[pointers[k] .. pointers[k + 1]) with values alongside (empty when every value is 1). Ids
// are local to the tile (32 bits: a tile is at most 2^32 vertices wide), rows ascending in a
// column.
#include <cstdint>
#include <span>
#include <vector>

namespace courier::la {

struct Entry {
  std::uint32_t row = 0, column = 0;
  float value = 1;
};

class Tcsc {
 public:
  Tcsc() = default;
  // From entries in any order; `weighted`: keep their values (else every value is 1).
  Tcsc(std::vector<Entry> entries, bool weighted);

  std::size_t nonzeros() const { return rows_.size(); }
  std::size_t nonempty_columns() const { return columns_.size(); }
  bool weighted() const { return !values_.empty(); }

  std::span<const std::uint32_t> columns() const { return columns_; }
  std::span<const std::uint64_t> pointers() const { return pointers_; }  // nonempty_columns() + 1
  std::span<const std::uint32_t> rows() const { return rows_; }
  std::span<const float> values() const { return values_; }  // empty: all 1

  std::size_t bytes() const;  // the memory it holds

 private:
  std::vector<std::uint32_t> columns_;
  std::vector<std::uint64_t> pointers_;
  std::vector<std::uint32_t> rows_;
  std::vector<float> values_;
};

}  // namespace courier::la
