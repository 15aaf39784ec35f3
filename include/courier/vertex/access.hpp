#pragma once
// Where an operator writes and reads a label, and from that and the partition policy, which way
// the label must travel after a round (Gluon, paper 000 section II: depending on the policy and
// the operator, reduce, broadcast, or both). An operator works on edges (source -> destination)
// stored on this rank; an endpoint that may be a mirror here must be synchronised:
//   written where a mirror may be   -> reduce (mirrors -> master), else the master already has it;
//   read where a mirror may be      -> broadcast (master -> mirrors), else only masters read it.
// An outgoing edge cut stores every edge with its source's master, so sources are masters; an
// incoming edge cut stores it with its destination's master; vertex cuts promise neither.
// So push and pull along out-edges (read source, write destination) need only reduce on oec and
// only broadcast on iec; cvc and hash need both.
#include <cstdint>

#include "courier/dist/partition_plan.hpp"

namespace courier::vertex {

enum class At : std::uint8_t {
  none,         // the operator does not touch the label this way
  master,       // only masters (e.g. a per-vertex update after a reduce)
  source,       // the source end of edges stored here
  destination,  // the destination end of edges stored here
  any,          // either end
};

struct Access {
  At written = At::destination;
  At read = At::source;
};

// Data flowing along edges: read at the source, written at the destination (push along out-edges,
// or pull over in-edges).
inline constexpr Access kAlongEdges{At::destination, At::source};
// Data flowing both ways along edges (e.g. weakly connected components).
inline constexpr Access kBothWays{At::any, At::any};

struct SyncPlan {
  bool reduce = false;
  bool broadcast = false;
  friend bool operator==(const SyncPlan&, const SyncPlan&) = default;
};

// Whether a proxy at `at` of an edge stored on some rank may be a mirror under `policy`.
bool may_be_mirror(dist::Policy policy, At at);
// The rule, written once: what a label with `access` needs after a round on `ranks` ranks.
SyncPlan sync_plan(dist::Policy policy, rank_t ranks, Access access);

}  // namespace courier::vertex
