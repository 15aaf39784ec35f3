#include "la/graphblas_peer.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

#include "courier/core/timer.hpp"
#include "courier/graph/reference/unreached.hpp"

extern "C" {
#include <GraphBLAS.h>
}

namespace courier::bench {

namespace {

void check(GrB_Info info, const char* what) {
  if (info != GrB_SUCCESS && info != GrB_NO_VALUE)
    throw std::runtime_error(std::string("GraphBLAS: ") + what + " failed (" + std::to_string(info) + ")");
}

}  // namespace

struct GraphblasPeer::State {
  GrB_Index n = 0;
  GrB_Matrix a = nullptr;           // A(u, v) = 1 for u -> v
  GrB_Matrix at = nullptr;          // its transpose: pagerank pulls y = A' t
  GrB_Vector out_degree = nullptr;  // present where the out-degree is not 0
  GrB_Vector sinks = nullptr;       // present where it is 0
};

GraphblasPeer::GraphblasPeer(const graph::Csr& graph, unsigned threads) : state_(std::make_unique<State>()) {
  static const bool initialised = [] {  // once per process: GraphBLAS cannot start again after GrB_finalize
    check(GrB_init(GrB_NONBLOCKING), "init");
    return true;
  }();
  (void)initialised;
  check(GxB_Global_Option_set(GxB_GLOBAL_NTHREADS, static_cast<int>(threads)), "threads");
  State& s = *state_;
  s.n = graph.num_vertices();
  std::vector<GrB_Index> rows, columns;
  rows.reserve(graph.num_edges());
  columns.reserve(graph.num_edges());
  for (graph::vertex_t u = 0; u < graph.num_vertices(); ++u)
    for (graph::vertex_t v : graph.neighbors(u)) rows.push_back(u), columns.push_back(v);
  std::vector<double> ones(rows.size(), 1.0);
  check(GrB_Matrix_new(&s.a, GrB_FP64, s.n, s.n), "matrix");
  // Parallel edges count twice, as in the reference.
  check(GrB_Matrix_build_FP64(s.a, rows.data(), columns.data(), ones.data(), rows.size(), GrB_PLUS_FP64), "build");
  check(GrB_Matrix_new(&s.at, GrB_FP64, s.n, s.n), "transpose");
  check(GrB_transpose(s.at, nullptr, nullptr, s.a, nullptr), "transpose");
  check(GrB_Vector_new(&s.out_degree, GrB_FP64, s.n), "degrees");
  check(GrB_Vector_new(&s.sinks, GrB_BOOL, s.n), "sinks");
  for (graph::vertex_t u = 0; u < graph.num_vertices(); ++u) {
    const auto degree = graph.neighbors(u).size();
    if (degree > 0)
      check(GrB_Vector_setElement_FP64(s.out_degree, static_cast<double>(degree), u), "degree");
    else
      check(GrB_Vector_setElement_BOOL(s.sinks, true, u), "sink");
  }
  check(GrB_Vector_wait(s.out_degree, GrB_MATERIALIZE), "wait");
  check(GrB_Vector_wait(s.sinks, GrB_MATERIALIZE), "wait");
  check(GrB_Matrix_wait(s.at, GrB_MATERIALIZE), "wait");
}

GraphblasPeer::~GraphblasPeer() {
  GrB_Matrix_free(&state_->a);
  GrB_Matrix_free(&state_->at);
  GrB_Vector_free(&state_->out_degree);
  GrB_Vector_free(&state_->sinks);
}

double GraphblasPeer::pagerank(unsigned iterations, std::vector<double>& rank) {
  State& s = *state_;
  const double n = static_cast<double>(s.n), d = 0.85;
  GrB_Vector r = nullptr, t = nullptr, w = nullptr, held = nullptr;
  check(GrB_Vector_new(&r, GrB_FP64, s.n), "vector");
  check(GrB_Vector_new(&t, GrB_FP64, s.n), "vector");
  check(GrB_Vector_new(&w, GrB_FP64, s.n), "vector");
  check(GrB_Vector_new(&held, GrB_FP64, s.n), "vector");
  check(GrB_Vector_assign_FP64(r, nullptr, nullptr, 1.0 / n, GrB_ALL, s.n, nullptr), "init");
  Timer timer;
  for (unsigned step = 0; step < iterations; ++step) {
    // The rank the sinks hold, spread over all.
    double dangling = 0;
    check(GrB_Vector_apply(held, s.sinks, nullptr, GrB_IDENTITY_FP64, r, GrB_DESC_RS), "sinks");
    check(GrB_Vector_reduce_FP64(&dangling, nullptr, GrB_PLUS_MONOID_FP64, held, nullptr), "dangling");
    check(GrB_Vector_eWiseMult_BinaryOp(t, nullptr, nullptr, GrB_DIV_FP64, r, s.out_degree, nullptr), "share");
    // plus-times rather than plus-second: a parallel edge is one entry of value 2 here and counts twice,
    // as in the reference and in la.
    check(GrB_mxv(w, nullptr, nullptr, GrB_PLUS_TIMES_SEMIRING_FP64, s.at, t, GrB_DESC_R), "pull");
    check(GrB_Vector_assign_FP64(r, nullptr, nullptr, (1 - d) / n + d * dangling / n, GrB_ALL, s.n, nullptr), "base");
    check(GrB_Vector_apply_BinaryOp2nd_FP64(r, nullptr, GrB_PLUS_FP64, GrB_TIMES_FP64, w, d, nullptr), "update");
  }
  check(GrB_Vector_wait(r, GrB_MATERIALIZE), "wait");
  const double seconds = timer.elapsed();
  rank.assign(s.n, 0.0);
  GrB_Index count = s.n;
  std::vector<GrB_Index> index(s.n);
  std::vector<double> value(s.n);
  check(GrB_Vector_extractTuples_FP64(index.data(), value.data(), &count, r), "extract");
  for (GrB_Index k = 0; k < count; ++k) rank[index[k]] = value[k];
  GrB_Vector_free(&r);
  GrB_Vector_free(&t);
  GrB_Vector_free(&w);
  GrB_Vector_free(&held);
  return seconds;
}

double GraphblasPeer::bfs(graph::vertex_t source, std::vector<std::uint64_t>& level) {
  State& s = *state_;
  GrB_Vector levels = nullptr, frontier = nullptr;
  check(GrB_Vector_new(&levels, GrB_UINT64, s.n), "vector");
  check(GrB_Vector_new(&frontier, GrB_BOOL, s.n), "vector");
  check(GrB_Vector_setElement_BOOL(frontier, true, source), "source");
  Timer timer;
  GrB_Index active = 1;
  for (std::uint64_t depth = 0; active > 0; ++depth) {
    check(GrB_Vector_assign_UINT64(levels, frontier, nullptr, depth, GrB_ALL, s.n, GrB_DESC_S), "levels");
    check(GrB_vxm(frontier, levels, nullptr, GxB_ANY_PAIR_BOOL, frontier, s.a, GrB_DESC_RSC), "step");
    check(GrB_Vector_nvals(&active, frontier), "count");
  }
  check(GrB_Vector_wait(levels, GrB_MATERIALIZE), "wait");
  const double seconds = timer.elapsed();
  level.assign(s.n, graph::reference::kUnreached);
  GrB_Index count = s.n;
  std::vector<GrB_Index> index(s.n);
  std::vector<std::uint64_t> value(s.n);
  check(GrB_Vector_extractTuples_UINT64(index.data(), value.data(), &count, levels), "extract");
  for (GrB_Index k = 0; k < count; ++k) level[index[k]] = value[k];
  GrB_Vector_free(&levels);
  GrB_Vector_free(&frontier);
  return seconds;
}

}  // namespace courier::bench
