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
  // From entries in any order, by sorting them (small sets; tiles are built by TcscBuilder);
  // `weighted`: keep their values (else every value is 1).
  Tcsc(std::vector<Entry> entries, bool weighted);
  // From its parts, already in the form above; `values` empty or one per row.
  Tcsc(std::vector<std::uint32_t> columns, std::vector<std::uint64_t> pointers, std::vector<std::uint32_t> rows,
       std::vector<float> values);

  std::size_t nonzeros() const { return rows_.size(); }
  std::size_t nonempty_columns() const { return columns_.size(); }
  bool weighted() const { return !values_.empty(); }

  std::span<const std::uint32_t> columns() const { return columns_; }
  std::span<const std::uint64_t> pointers() const { return pointers_; }  // nonempty_columns() + 1
  std::span<const std::uint32_t> rows() const { return rows_; }
  std::span<const float> values() const { return values_; }  // empty: all 1

  // The tile turned around (its rows as columns), values kept if asked; a counting sort, so
  // linear, and since the columns are read in order the turned rows come out ascending.
  Tcsc turned(bool with_values) const;
  // {the entries whose row r has out[r] == 0, the others}: a tile split at a set of rows.
  std::pair<Tcsc, Tcsc> split(std::span<const std::uint8_t> out) const;
  // {the entries whose column c has chosen[c] == 0, the others}: a tile split at a set of columns.
  std::pair<Tcsc, Tcsc> split_columns(std::span<const std::uint8_t> chosen) const;

  std::size_t bytes() const;  // the memory it holds

 private:
  std::vector<std::uint32_t> columns_;
  std::vector<std::uint64_t> pointers_;
  std::vector<std::uint32_t> rows_;
  std::vector<float> values_;
};

// Builds a tile of `width` columns by a counting sort, in time linear in its entries: count()
// every entry's column, then allocate(), then place() every entry, then finish(). Between them
// it holds one counter per column of the width, which finish() lets go. The rows of a column come
// in the order placed: ascending only if placed so (turned() of the result puts them in order).
class TcscBuilder {
 public:
  TcscBuilder(std::uint32_t width, bool weighted) : weighted_(weighted), next_(std::size_t{width} + 1, 0) {}

  void count(std::uint32_t column) { ++next_[column + 1]; }
  void allocate();
  void place(std::uint32_t row, std::uint32_t column, float value) {
    const std::uint64_t at = next_[column]++;
    rows_[at] = row;
    if (weighted_) values_[at] = value;
  }
  Tcsc finish();

 private:
  bool weighted_;
  std::vector<std::uint64_t> next_;  // counts, then where each column's next entry goes
  std::vector<std::uint32_t> rows_;
  std::vector<float> values_;
};

}  // namespace courier::la
