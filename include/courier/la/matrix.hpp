#pragma once
// Matrix: one rank's share of the 2D thread-partitioned matrix (grid.hpp): the tiles of each of
// its members, in row order, and, for each segment one of its members leads, the out-degrees of
// the segment's vertices (pagerank divides by them). Built from the edges the grid gives this
// rank, which the loader has already moved here.
//
// Split for computation filtering (paper 003, section 7.6), a tile keeps the entries whose row is a
// vertex without out-edges (a sink, since the entry is an in-edge) apart, so an iteration that
// does not need the sinks' values skips them. Split at the sources (vertices with out-edges and no
// in-edges), it keeps the entries whose column is a source apart too (before the sink split, so an
// entry from a source into a sink is the sources'), and sums them once into each row's source
// weight w[v] = sum over sources s -> v of 1 / out-degree(s): for a program whose every source
// holds the same value r at a step and whose x is value / out-degree under a semiring that ignores
// the entries' values (pagerank, plus-second), those entries' whole product is r * w.
//
// Kept by rows too (`by_rows`), each tile also holds its entries turned around, for programs that
// pull (bfs's direction switching); this doubles the tiles' memory, so only they ask for it.
// Kept by rows only (`rows_only`), for stationary programs that sum every in-neighbour (pagerank,
// la/pull.hpp's pull_sum), entries and to_sinks are held turned around instead: by rows, each
// row's columns ascending, and no tile by columns at all.
// Sampled, each tile also holds the entries among the first kSampleEntries of their column or of
// their row -- symmetric when the matrix is -- for programs that run on samples first (cc).
#include <cstdint>
#include <span>
#include <vector>

#include "courier/dist/collective.hpp"
#include "courier/graph/csr_rows.hpp"
#include "courier/graph/edge_list.hpp"
#include "courier/la/grid.hpp"
#include "courier/la/tcsc.hpp"

namespace courier::la {

namespace detail {
struct Built;
}

struct Tile {
  unsigned row = 0, column = 0;  // its row group (segment of destinations) and column group (sources)
  Tcsc entries;                  // all of them, or those into vertices with out-edges when split
  Tcsc to_sinks;                 // when split: those into vertices without out-edges (both turned when rows_only)
  Tcsc from_sources;             // when split at the sources: those out of them (turned too when rows_only)
  Tcsc by_rows;                  // when kept by rows too: all of them turned around (la/pull.hpp)
  Tcsc sample;                   // when sampled: the first kSampleEntries of each column and row
};

// Entries per column and per row of a tile's sample: Afforest joins along each vertex's first two
// neighbours.
inline constexpr std::size_t kSampleEntries = 2;

// The forms a program wants its tiles in besides by columns (see above).
struct Forms {
  bool split_sinks = false;
  bool split_sources = false;
  bool by_rows = false;
  bool sampled = false;
  bool rows_only = false;
};

class Matrix {
 public:
  // `edges` (weights alongside, or none) are every edge whose tile a member of `rank` owns; the
  // matrix takes them over and lets them go once they are in tiles. Collective: the out-degrees
  // are summed over ranks, and, to split the tiles at the sinks, sent from each segment's leader
  // to the owners of its row group.
  Matrix(const Grid& grid, rank_t rank, graph::EdgeList edges, const dist::Collective& collective, Forms forms = {});
  // The same from a .csr file's rows, with no edge list: a row's targets are its column's entries
  // (the file's out-edges are A's columns). `file` holds at least the rows of every column group
  // where a member of `rank` owns a tile; each rank reads the entries of its own tiles out of them
  // and lets their pages go. `weighted`: keep the file's weights, if it has any.
  Matrix(const Grid& grid, rank_t rank, const graph::CsrRows& file, bool weighted, const dist::Collective& collective,
         Forms forms = {});

  const Grid& grid() const { return grid_; }
  rank_t rank() const { return rank_; }
  // Member m's tiles, by row group then column group.
  std::span<const Tile> tiles(unsigned member) const { return tiles_[member]; }
  // The out-degrees of segment i's vertices; i must be led by a member of this rank.
  std::span<const std::uint32_t> out_degrees(unsigned segment) const { return out_degrees_[segment]; }
  bool weighted() const { return weighted_; }
  bool split() const { return forms_.split_sinks; }
  bool split_sources() const { return forms_.split_sources; }
  // Split at the sources: segment i's source weights (above), or empty when no source feeds it; i
  // must be led by a member of this rank.
  std::span<const double> source_weights(unsigned segment) const { return source_weights_[segment]; }
  std::uint64_t source_nonzeros() const { return source_nonzeros_; }  // entries out of sources, on this rank
  bool by_rows() const { return forms_.by_rows; }
  bool sampled() const { return forms_.sampled; }
  bool rows_only() const { return forms_.rows_only; }
  std::uint64_t nonzeros() const { return nonzeros_; }  // on this rank
  std::size_t bytes() const;                            // the tiles' memory on this rank

 private:
  // Collective: the out-degrees, the splits at the sources and sinks and the other forms of the tiles built.
  void finish(detail::Built built, const dist::Collective& collective);
  // Collective: which vertices of each column group where this rank owns tiles are sources, as
  // 1 / out-degree (0: not a source).
  std::vector<std::vector<double>> sources(const dist::Collective& collective) const;
  // Collective, after the split: the source weights summed at each row group's leader.
  void weigh_sources(const std::vector<std::vector<double>>& inverse, const dist::Collective& collective);

  Grid grid_;
  rank_t rank_;
  bool weighted_ = false;
  Forms forms_;
  std::uint64_t nonzeros_ = 0;
  std::uint64_t source_nonzeros_ = 0;
  std::vector<std::vector<Tile>> tiles_;                 // by member
  std::vector<std::vector<std::uint32_t>> out_degrees_;  // by segment: empty unless led here
  std::vector<std::vector<double>> source_weights_;      // by segment: empty unless led here and fed by a source
};

}  // namespace courier::la
