#pragma once
// The partition a program needs (layout.hpp) from the vertex engine's loader: for Layout::both, an
// outgoing edge cut whose edges are also copied to the rank mastering their destination, so that
// every master has its out-edges and its in-edges. Masters stay where the plan put them.
#include "courier/dist/collective.hpp"
#include "courier/dist/local_graph.hpp"

namespace courier::dsl::rt {

// `out_cut` holds its masters' out-edges (an oec partition). Collective.
dist::LocalGraph with_both_rows(const dist::LocalGraph& out_cut, const dist::Collective& collective);

}  // namespace courier::dsl::rt
