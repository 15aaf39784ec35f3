#pragma once
// CsrRows: a part of a .csr file's rows, borrowed from the mapped file rather than expanded into an
// EdgeList (16 bytes an edge). Distributed loading reads them in passes of a bounded window and
// releases each window's pages once read, so a rank's part costs its resident memory only while a
// window of it is being read (graph/slice.hpp: ReadOptions::csr_rows).
#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>

#include "courier/core/buffer.hpp"
#include "courier/core/mapped_file.hpp"
#include "courier/graph/csr.hpp"

namespace courier::graph {

struct CsrRows {
  vertex_t first = 0;        // the part's first row, a global vertex id
  Buffer<edge_t> offsets;    // rows() + 1 entries, the file's: row first + r has edges [offsets[r], offsets[r+1])
  Buffer<vertex_t> targets;  // the part's edges' targets: edge k of the part is the file's offsets[0] + k
  CsrWeights weights;        // the same edges' weights, or none
  std::shared_ptr<const MappedFile> file;
  bool symmetric = false;  // the whole file's edges are (Csr::symmetric)

  vertex_t rows() const { return offsets.empty() ? 0 : offsets.size() - 1; }
  edge_t edges() const { return targets.size(); }
  edge_t edge_begin() const { return offsets.empty() ? 0 : offsets[0]; }

  // Drops the pages of edges [from, to) of the part (targets and weights) from resident memory.
  void release(edge_t from, edge_t to) const;
  // Drops every page of the file's mapping from resident memory; one read again comes back from
  // the page cache. Each rank maps the file, and besides its rows' windows its reader and its plan
  // touch every row's offsets and the first page of other parts' checksum blocks, which a file
  // mapped in large folios maps 2 MiB at a time: at kron:20, 10 MB of each rank's mapping stayed
  // resident through the build until this was called after the plan and after the rows were read.
  void release_all() const;

  // Calls f(source, target, k) for the part's edges k in [from, to), in order.
  template <class F>
  void visit(edge_t from, edge_t to, F&& f) const {
    if (from >= to) return;
    const edge_t base = edge_begin();
    // The row holding edge `from`: the last row starting at or before it.
    vertex_t r =
        static_cast<vertex_t>(std::upper_bound(offsets.begin(), offsets.end(), base + from) - offsets.begin()) - 1;
    for (edge_t k = from; k < to; ++k) {
      while (offsets[r + 1] <= base + k) ++r;
      f(first + r, targets[k], k);
    }
  }
};

// Rows [first, last) of the .csr file that `read` (a part of it, as its reader made it) was read
// from, borrowed from the same mapping (whose offsets that reader checked): for a rank whose rows
// are not the part it read (dist/: under oec, its masters' rows). Their targets were checked by the
// readers of the other parts.
CsrRows map_csr_rows(const CsrRows& read, vertex_t first, vertex_t last);

}  // namespace courier::graph
