#pragma once
// LocalGraph: one rank's partition of a distributed graph. Its proxies are its masters (local ids
// 0 .. masters()-1, the rank's contiguous range of global ids) followed by its mirrors (proxies of
// vertices mastered elsewhere, sorted by global id, hence grouped by owner). Edges are stored
// with 32-bit local ids. For synchronisation it knows, for every peer, which of its mirrors that
// peer masters and which of its masters that peer mirrors, in an order both sides agree on.
#include <cstdint>
#include <optional>
#include <span>
#include <variant>
#include <vector>

#include "courier/core/uninit_vector.hpp"
#include "courier/dist/collective.hpp"
#include "courier/dist/partition_plan.hpp"
#include "courier/dist/row_offsets.hpp"
#include "courier/graph/csr_rows.hpp"
#include "courier/graph/edge_list.hpp"
#include "courier/graph/partitioned_csr.hpp"

namespace courier::dist {

using local_t = std::uint32_t;

// Rows of local ids sorted by (target, weight), with weights alongside when the graph has them.
struct LocalCsr {
  RowOffsets offsets;             // proxies + 1 entries
  UninitVector<local_t> targets;  // filled in parallel: resize leaves it unwritten
  graph::EdgeWeights weights;

  edge_t degree(local_t v) const { return offsets[v + 1] - offsets[v]; }
  std::span<const local_t> neighbors(local_t v) const {
    return std::span<const local_t>(targets).subspan(offsets[v], degree(v));
  }
};

// Edges as runs of one source: run r is source run_source[r] with the next run_length[r] entries
// of `targets`, in 32-bit global ids (graphs of at most 2^32 vertices). 4 bytes an edge and 8 a
// run: what the shuffle of a .csr file's rows delivers, since a sender's rows come in source order.
struct EdgeRuns {
  vertex_t num_vertices = 0;
  std::vector<std::uint32_t> run_source, run_length;
  std::vector<std::uint32_t> targets;
  graph::EdgeWeights weights;  // none, or one per target
  edge_t size() const { return targets.size(); }
};

// The bytes a partition keeps, by structure (allocated capacities): what a run reports per edge.
struct GraphBytes {
  std::uint64_t csr = 0;       // out-edges: offsets, targets, weights
  std::uint64_t in_edges = 0;  // in-edges, the same arrays (0 when the algorithm needs none)
  std::uint64_t proxies = 0;   // the mirrors' global and local ids, and the masters each peer mirrors
  std::uint64_t maps = 0;      // global <-> local: each owner's mirror range and the plan's bounds
  std::uint64_t total() const { return csr + in_edges + proxies + maps; }
  GraphBytes& operator+=(const GraphBytes& other);
};

class LocalGraph {
 public:
  // `edges` are this rank's edges in global ids (each with plan.edge_owner(...) == rank). `threads`
  // build it where the work divides (0: every core).
  // The graph is usable at once, but masters_mirrored_on() is empty until
  // set_mirrors_requested_by() has been called for each peer with that peer's mirror_requests(rank),
  // in this rank's local ids (connect_mirrors does both sides).
  // The edges are taken by value and freed once their local ids are known, before the rows are
  // built (move them in to keep a rank's peak memory down).
  LocalGraph(const PartitionPlan& plan, rank_t rank, graph::EdgeList edges, bool with_in_edges, unsigned threads = 0);
  // The same from runs of edges.
  LocalGraph(const PartitionPlan& plan, rank_t rank, EdgeRuns edges, bool with_in_edges, unsigned threads = 0);
  // The same from a .csr file's rows (graph/csr_rows.hpp) that all belong to this rank (one rank,
  // or its masters' rows under oec), read in windows whose pages are released once read.
  LocalGraph(const PartitionPlan& plan, rank_t rank, const graph::CsrRows& rows, bool with_in_edges,
             unsigned threads = 0);
  // Part `rank` of a partitioned .csr file (graph/partitioned_csr.hpp) written with this plan, as
  // written: its rows (and in-edges, if read), mirrors and the masters each peer mirrors are taken
  // over, nothing is built (connect_mirrors is not needed; in-edges not read are transposed).
  // Throws Error if the part's masters are not the plan's.
  LocalGraph(const PartitionPlan& plan, rank_t rank, graph::CsrPart part, bool with_in_edges, unsigned threads = 0);

  const PartitionPlan& plan() const { return plan_; }
  rank_t rank() const { return rank_; }
  rank_t ranks() const { return plan_.ranks(); }
  vertex_t global_vertices() const { return plan_.vertices(); }

  local_t masters() const { return masters_; }
  local_t mirrors() const { return static_cast<local_t>(narrow_ids() ? mirror_ids32_.size() : mirror_ids_.size()); }
  local_t proxies() const { return masters() + mirrors(); }
  bool is_master(local_t v) const { return v < masters_; }
  vertex_t global_id(local_t v) const { return is_master(v) ? first_master_ + v : mirror_id(v - masters_); }
  std::optional<local_t> local_id(vertex_t global) const;
  // The global id of mirror i (local id masters() + i); ascending in i.
  vertex_t mirror_id(std::size_t i) const { return narrow_ids() ? vertex_t{mirror_ids32_[i]} : mirror_ids_[i]; }
  std::vector<vertex_t> mirror_ids() const;  // every mirror's, ascending (for a file's parts)
  rank_t owner(local_t v) const { return is_master(v) ? rank_ : plan_.master_of(global_id(v)); }

  edge_t edges() const { return out_.targets.size(); }
  const LocalCsr& out() const { return out_; }
  bool has_in_edges() const { return in_is_out_ || !in_.offsets.empty(); }
  // On one rank of a graph known symmetric the in-edges are the out-edges: no transpose, no copy.
  const LocalCsr& in() const { return in_is_out_ ? out_ : in_; }
  bool in_edges_are_out_edges() const { return in_is_out_; }

  GraphBytes bytes() const;

  // My mirrors that `owner` masters: a contiguous range of local ids.
  std::span<const local_t> mirrors_owned_by(rank_t owner) const {
    return std::span<const local_t>(mirror_locals_).subspan(mirror_bounds_[owner],
                                                            mirror_bounds_[owner + 1] - mirror_bounds_[owner]);
  }
  // My masters that `peer` mirrors, in the order of peer's mirrors_owned_by(me).
  std::span<const local_t> masters_mirrored_on(rank_t peer) const { return masters_on_[peer]; }

  // What this rank tells `owner`: the mirrors it keeps of that owner's masters, as the owner's
  // local ids (global id minus its first master's).
  std::vector<local_t> mirror_requests(rank_t owner) const;
  // Records what `peer` sent in its mirror_requests(me), as this rank's local ids (global id minus
  // its first master's: 4 bytes a mirror on the wire, where global ids take 8), in peer's order.
  // Throws Error if one is not a master here.
  void set_mirrors_requested_by(rank_t peer, std::vector<local_t> masters);

 private:
  using WeightView = std::variant<std::monostate, std::span<const std::uint32_t>, std::span<const float>>;
  LocalGraph(const PartitionPlan& plan, rank_t rank, unsigned threads);
  // The proxies and out-edges from m edges: visit(f) calls f(src, dst) for each, in order, in
  // global ids; runs(f) calls f(src, count) for the same edges as runs of one source (rows, or
  // edges one by one); weights are theirs in that order. consume(f) is visit's last call, the one
  // that fills the rows: it may give back what it has visited (as EdgeRuns' does).
  template <class Visit, class Consume, class Runs>
  void build(Visit&& visit, Consume&& consume, Runs&& runs, edge_t m, const WeightView& weights);
  // A rank holding its masters' whole rows of a .csr (one rank, or oec): the rows are the file's,
  // copied on all cores with their targets narrowed and mapped to local ids (identity on one rank),
  // no scatter and no vertex-sized map.
  void copy_rows(const graph::CsrRows& rows);
  // Keeps `ids` (global, ascending) as the mirrors, numbered after the masters and grouped by owner.
  void take_mirrors(std::vector<vertex_t> ids);

  PartitionPlan plan_;
  rank_t rank_;
  unsigned threads_;  // that build it
  vertex_t first_master_;
  local_t masters_;
  // Every mirror's global id, sorted: in 32 bits where the graph's ids fit (4 bytes a mirror less:
  // hash at 4 ranks of kron:20 keeps 1.3 M mirrors), else in 64.
  bool narrow_ids() const { return narrow_ids_; }
  bool narrow_ids_;
  std::vector<std::uint32_t> mirror_ids32_;
  std::vector<vertex_t> mirror_ids_;
  std::vector<local_t> mirror_locals_;    // masters_ .. proxies-1, so ranges can be spans
  std::vector<std::size_t> mirror_bounds_;  // ranks + 1: mirrors of owner r are [b[r], b[r+1])
  std::vector<std::vector<local_t>> masters_on_;
  LocalCsr out_;
  LocalCsr in_;
  bool in_is_out_ = false;
};

// Tells every owner which of its masters this rank mirrors, so both sides agree on the order of
// their mirror lists (mirror_requests, then set_mirrors_requested_by for every peer). Collective.
void connect_mirrors(LocalGraph& graph, const Collective& collective);

// Every rank's partition, built in one process from the whole edge list: for tests, and for the
// local transport where ranks share an address space.
std::vector<LocalGraph> partition_in_memory(const graph::EdgeList& edges, Policy policy, rank_t ranks,
                                            bool with_in_edges);

struct PartitionQuality {
  double replication = 0;     // proxies per vertex
  double edge_imbalance = 0;  // largest rank's edges over the mean
};
PartitionQuality quality(std::span<const LocalGraph> parts);
// The same from each rank's own part. Collective.
PartitionQuality quality(const LocalGraph& mine, const Collective& collective);

}  // namespace courier::dist
