#pragma once
// RowOffsets: where each row of a rank's CSR starts (rows + 1 ascending entries, the last the
// edge count), in 32 bits while the rank's edges fit, else in 64. A rank's edges fit unless they
// are 4 G or more (16 GiB of targets alone), so a row costs 4 bytes instead of 8, and so do the
// builders' cursors: bfs on kron:20 at 2 ranks peaks 16 MB lower (out- and in-edges).
#include <atomic>
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

#include "courier/graph/types.hpp"

namespace courier::dist {

class RowOffsets {
 public:
  RowOffsets() = default;
  // Takes offsets built in 32 bits, as builders do where in_width_for gives them std::uint32_t.
  explicit RowOffsets(std::vector<std::uint32_t> offsets) : narrow_(std::move(offsets)) {}
  // Takes offsets built in 64 bits, narrowed when the last (the largest) fits in 32 (a copy: the
  // 64-bit array is alive beside it for a moment, so builders that can should make them narrow).
  explicit RowOffsets(std::vector<graph::edge_t> offsets) {
    if (!offsets.empty() && fits(offsets.back())) {
      narrow_.assign(offsets.begin(), offsets.end());
    } else {
      wide_ = std::move(offsets);
    }
  }
  // f(O{}) with O the type rows of `edges` edges keep their offsets in (std::uint32_t or
  // graph::edge_t), so that a builder makes them in it from the start.
  template <class F>
  static decltype(auto) in_width_for(graph::edge_t edges, F&& f) {
    return fits(edges) ? f(std::uint32_t{}) : f(graph::edge_t{});
  }

  graph::edge_t operator[](std::size_t i) const { return wide_.empty() ? graph::edge_t{narrow_[i]} : wide_[i]; }
  std::size_t size() const { return wide_.empty() ? narrow_.size() : wide_.size(); }
  bool empty() const { return size() == 0; }
  graph::edge_t back() const { return (*this)[size() - 1]; }
  bool narrow() const { return wide_.empty(); }

  // f(span) over the entries as stored (std::uint32_t or graph::edge_t): for loops that would
  // otherwise test the width at every entry, and for the standard algorithms. Both calls must
  // return the same type.
  template <class F>
  decltype(auto) visit(F&& f) const {
    return wide_.empty() ? f(std::span<const std::uint32_t>(narrow_)) : f(std::span<const graph::edge_t>(wide_));
  }
  // As 64-bit entries (for a file's rows).
  std::vector<graph::edge_t> widened() const {
    return visit([](auto entries) { return std::vector<graph::edge_t>(entries.begin(), entries.end()); });
  }
  std::uint64_t bytes() const {
    return narrow_.capacity() * sizeof(std::uint32_t) + wide_.capacity() * sizeof(graph::edge_t);
  }

  // The most edges kept in 32 bits: tests lower it to build 64-bit rows from small graphs.
  static inline std::atomic<graph::edge_t> narrow_limit{std::numeric_limits<std::uint32_t>::max()};

  friend bool operator==(const RowOffsets& a, const RowOffsets& b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
      if (a[i] != b[i]) return false;
    return true;
  }

 private:
  static bool fits(graph::edge_t edges) { return edges <= narrow_limit.load(std::memory_order_relaxed); }

  std::vector<std::uint32_t> narrow_;
  std::vector<graph::edge_t> wide_;
};

}  // namespace courier::dist
