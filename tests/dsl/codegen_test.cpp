// Code generation on the shipped programs and on small programs with known answers: the shape of
// what each generation writes (one function per source function, #line directives, the
// transformations where the analyses allow them and not elsewhere), and the constructs it refuses.
// That the generated code compiles warning-free and computes the references' results is tested by
// building Courier::dsl_programs and by dsl_engine_test.
#include "courier/dsl/codegen.hpp"

#include <gtest/gtest.h>

#include <string>

#include "courier/dsl/compile_error.hpp"
#include "courier/dsl/front_end.hpp"
#include "courier/dsl/shipped_programs.hpp"

namespace courier::dsl {
namespace codegen_test {

std::string generate(std::string_view source, rt::Generation generation = rt::Generation::optimised) {
  const Program program = front_end(source, "test.sp");
  CodegenOptions options;
  options.generation = generation;
  return generate_source(program, analyse(program), options);
}

std::string shipped(std::string_view name, rt::Generation generation = rt::Generation::optimised) {
  return generate(find_shipped_program(name)->source, generation);
}

bool has(const std::string& text, std::string_view part) { return text.find(part) != std::string::npos; }

std::size_t count(const std::string& text, std::string_view part) {
  std::size_t n = 0;
  for (std::size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

TEST(Codegen, OneFunctionPerSourceFunctionEachStatementLedByLine) {
  const std::string cpp = generate(
      "function one(Graph g, propNode<int> p) {\n  g.attachNodeProperty(p = 3);\n}\n"
      "function two(Graph g) {\n  long n = g.num_nodes();\n  return n;\n}\n");
  EXPECT_TRUE(has(cpp, "void one(rt::Graph& g, rt::NodeProperty<std::int32_t>& p) {\n")) << cpp;
  EXPECT_TRUE(has(cpp, "std::int64_t two(rt::Graph& g) {\n")) << cpp;
  EXPECT_TRUE(has(cpp, "#line 2 \"test.sp\"\n  p.fill(3);\n")) << cpp;
  EXPECT_TRUE(has(cpp, "#line 5 \"test.sp\"\n  std::int64_t n = g.num_nodes();\n")) << cpp;
  EXPECT_TRUE(has(cpp, "  g.keep(\"n\", n);\n  return n;\n")) << cpp;
  EXPECT_EQ(count(cpp, "#line "), 5u) << cpp;
}

// sssp's relaxation loop is reduction-exclusive: it is aggregated, reads v.dist from local memory,
// takes the edge in hand, visits the frontier, and sets modified_next where Min lowered a node.
TEST(Codegen, OptimisedSsspAppliesTheTransformations) {
  const std::string cpp = shipped("sssp");
  EXPECT_TRUE(has(cpp, "g.for_flagged(modified, [&](rt::local v, [[maybe_unused]] unsigned member_) {")) << cpp;
  // The row as a span, and dist reduced through a view of it: locals the compiler keeps in registers.
  EXPECT_TRUE(has(cpp,
                  "const auto dist_by_0_ = dist.reducer<rt::Min>();\n"
                  "      const std::span<const rt::local> row_nbr_ = g.out_neighbors(v);\n"
                  "      [[maybe_unused]] const rt::edge first_nbr_ = g.out_begin(v);\n"
                  "      for (std::size_t k_nbr_ = 0; k_nbr_ < row_nbr_.size(); ++k_nbr_) {\n"
                  "        [[maybe_unused]] const rt::edge edge_nbr_ = first_nbr_ + k_nbr_;\n"
                  "        const rt::local nbr = row_nbr_[k_nbr_];"))
      << cpp;
  EXPECT_TRUE(has(cpp, "const rt::edge e = edge_nbr_;")) << cpp;
  EXPECT_TRUE(
      has(cpp,
          "dist_by_0_.reduce(nbr, g.narrow<std::int32_t, rt::Min>((std::int64_t{dist_by_0_.load(v)} + weight.out(e)), "
          "\"test.sp:16:56\"), also_16_);"))
      << cpp;
  EXPECT_FALSE(has(cpp, "dist.reduce<")) << cpp;
  EXPECT_TRUE(has(cpp, "dist.finish_reduce<rt::Min>(also_16_);  // one bulk reduction")) << cpp;
  EXPECT_TRUE(has(cpp, "modified_next.store(n_, true);")) << cpp;
  EXPECT_TRUE(has(cpp, "finished = !g.next_round(modified.count());")) << cpp;
  EXPECT_FALSE(has(cpp, "ReductionQueue")) << cpp;
  EXPECT_FALSE(has(cpp, ".get(")) << cpp;
}

TEST(Codegen, NaiveSsspDoesWhatStarPlatsBackendDoes) {
  const std::string cpp = shipped("sssp", rt::Generation::naive);
  EXPECT_TRUE(has(cpp, "namespace courier::dsl::programs::naive {")) << cpp;
  EXPECT_TRUE(has(cpp,
                  "g.for_nodes([&](rt::local v, [[maybe_unused]] unsigned member_) {\n"
                  "      if (!(modified.get(v) == true)) return;"))
      << cpp;
  EXPECT_TRUE(has(cpp, "for (const rt::local nbr : g.out_neighbors(v)) {")) << cpp;
  EXPECT_TRUE(has(cpp, "const rt::edge e = g.find_out_edge(v, nbr);")) << cpp;
  EXPECT_TRUE(
      has(cpp,
          "accumulation_16_.push(member_, nbr, g.narrow<std::int32_t, rt::Min>((std::int64_t{dist.get(v)} + "
          "weight.out(e)), \"test.sp:16:56\"));"))
      << cpp;
  EXPECT_TRUE(has(cpp, "rt::Accumulation<std::int32_t, rt::Min> accumulation_16_(g, \"sssp.accumulation_16_\");"))
      << cpp;
  EXPECT_TRUE(has(cpp, "accumulation_16_.finish<rt::Min>(dist, also_16_);")) << cpp;
  EXPECT_FALSE(has(cpp, "ReductionQueue")) << cpp;
  EXPECT_TRUE(has(cpp, "modified_next.put(n_, true);")) << cpp;
  EXPECT_FALSE(has(cpp, "finish_reduce")) << cpp;
  EXPECT_FALSE(has(cpp, ".load(")) << cpp;
}

// A pull of in-neighbours' values reads them through mirrors; x is cache-safe, so the optimised
// refresh sends only the masters that changed; the naive generation gets each from its owner.
// The largest x among a node's in-neighbours: not a sum, so not a split pull.
constexpr std::string_view kPull =
    "function f(Graph g, propNode<double> x, propNode<double> y) {\n"
    "  forall (v in g.nodes()) {\n"
    "    double s = 0;\n"
    "    for (u in g.nodes_to(v)) { if (u.x > s) { s = u.x; } }\n"
    "    v.y = s;\n"
    "  }\n"
    "}\n";

// A sum over in-edges of the neighbour's values: a split pull.
constexpr std::string_view kSplitPull =
    "function f(Graph g, propNode<double> x, propNode<double> y) {\n"
    "  forall (v in g.nodes()) {\n"
    "    double s = 0;\n"
    "    for (u in g.nodes_to(v)) { s = s + u.x; }\n"
    "    v.y = s;\n"
    "  }\n"
    "}\n";

TEST(Codegen, RemoteReadsAreRefreshedByCacheSafety) {
  const std::string optimised = generate(kPull);
  EXPECT_TRUE(has(optimised, "x.track();")) << optimised;
  EXPECT_TRUE(has(optimised, "x.refresh(rt::Fetch::changed);")) << optimised;
  EXPECT_TRUE(has(optimised, "const std::span<const rt::local> row_u_ = g.in_neighbors(v);")) << optimised;
  EXPECT_TRUE(has(optimised, "for (std::size_t k_u_ = 0; k_u_ < row_u_.size(); ++k_u_) {")) << optimised;
  const std::string naive = generate(kPull, rt::Generation::naive);
  EXPECT_TRUE(has(naive, "x.begin_gets();")) << naive;
  EXPECT_TRUE(has(naive, "x.end_gets();")) << naive;
  EXPECT_FALSE(has(naive, "x.refresh(")) << naive;
  EXPECT_TRUE(has(naive, "for (const rt::local u : g.in_neighbors(v)) {")) << naive;
  EXPECT_TRUE(has(naive, "if ((x.get(u) > s)) {")) << naive;
}

// The optimised generation sums each rank's own in-edges before the loop, reading the neighbours'
// x at masters (no mirror refreshed); the loop adds the master's sum. The naive one pulls as written.
TEST(Codegen, ASumOverInEdgesIsSplitOverTheRanks) {
  const std::string optimised = generate(kSplitPull);
  EXPECT_TRUE(has(optimised, "rt::InSums<double> in_sums_4_5_(g);  // the split pull of 4:5")) << optimised;
  EXPECT_TRUE(has(optimised,
                  "in_sums_4_5_.compute([&](rt::local v, [[maybe_unused]] unsigned member_) {\n"
                  "    double sum_{};\n"
                  "    for (const rt::local u : g.in_neighbors(v)) sum_ += x[u];\n"
                  "    return sum_;\n"
                  "  });"))
      << optimised;
  EXPECT_TRUE(has(optimised, "s = s + in_sums_4_5_[v];  // the split pull's sum")) << optimised;
  EXPECT_FALSE(has(optimised, "x.refresh(")) << optimised;
  EXPECT_FALSE(has(optimised, "x.track(")) << optimised;
  const std::string naive = generate(kSplitPull, rt::Generation::naive);
  EXPECT_FALSE(has(naive, "InSums")) << naive;
  EXPECT_TRUE(has(naive, "x.begin_gets();")) << naive;
}

// PageRank's share of an in-neighbour (u.rank / g.count_outNbrs(u)) is computed once per node before
// the pulse, into a property read at masters by the split pull, by the dangling sum's loop over
// every node (fused, before its filter); the naive generation divides on every in-edge and gets
// each in-neighbour's rank from its owner. The step's `rank = next_rank` moves the ranks over.
TEST(Codegen, PagerankHoistsTheShareOutOfTheEdgeLoop) {
  const std::string optimised = shipped("pagerank");
  EXPECT_TRUE(has(optimised, "rt::NodeProperty<double> hoisted_22_21_(g);")) << optimised;
  EXPECT_TRUE(has(optimised,
                  "g.for_nodes([&](rt::local v, [[maybe_unused]] unsigned member_) {\n"
                  "      hoisted_22_21_.store(v, (rank.load(v) / g.out_degree(v)));  // for the loop at 19:5 (fused)\n"
                  "      if (!(g.out_degree(v) == 0)) return;\n"))
      << optimised;
  EXPECT_FALSE(has(optimised, "for_masters")) << optimised;
  EXPECT_TRUE(has(optimised, "rank.move_from(next_rank);")) << optimised;
  EXPECT_FALSE(has(optimised, "copy_from")) << optimised;
  // A split pull: the shares are read at masters only, so nothing is refreshed.
  EXPECT_FALSE(has(optimised, "hoisted_22_21_.refresh(")) << optimised;
  EXPECT_TRUE(has(optimised, "for (const rt::local u : g.in_neighbors(v)) sum_ += hoisted_22_21_[u];")) << optimised;
  EXPECT_TRUE(has(optimised, "sum = sum + in_sums_21_7_[v];")) << optimised;
  EXPECT_FALSE(has(optimised, "rank.refresh(")) << optimised;  // rank is read at masters only
  EXPECT_FALSE(has(optimised, "rank.track(")) << optimised;
  EXPECT_TRUE(has(optimised, "dangling = partial_dangling_15_.finish(dangling);")) << optimised;
  const std::string naive = shipped("pagerank", rt::Generation::naive);
  EXPECT_FALSE(has(naive, "hoisted")) << naive;
  EXPECT_TRUE(has(naive, "rank.begin_gets();")) << naive;
  EXPECT_TRUE(has(naive, "sum = (sum + (rank.get(u) / g.out_degree(u)));")) << naive;
  EXPECT_TRUE(has(naive, "rank.end_gets();\n    change = partial_change_29_.finish(change);")) << naive;
  EXPECT_TRUE(has(naive, "rank.copy_from(next_rank);")) << naive;  // its windows stay where they are
  // Out-degrees only: nothing reads an in-degree, so no rank agrees on them.
  EXPECT_TRUE(has(optimised, "g.prepare_out_degrees();")) << optimised;
  EXPECT_FALSE(has(optimised, "prepare_in_degrees")) << optimised;
}

// The float-shares pagerank keeps its shares in a float property: the narrowing from the double
// quotient is written out, and the split pull reads the shares with plain loads.
TEST(Codegen, PagerankWithFloatSharesNarrowsOnceANode) {
  const std::string optimised = shipped("pagerank_float_shares");
  EXPECT_TRUE(has(optimised, "rt::NodeProperty<float> share(g);")) << optimised;
  EXPECT_TRUE(has(optimised, "share.store(v, static_cast<float>((rank.load(v) / g.out_degree(v))));")) << optimised;
  EXPECT_TRUE(has(optimised, "for (const rt::local u : g.in_neighbors(v)) sum_ += share[u];")) << optimised;
  EXPECT_TRUE(has(optimised, "rank.move_from(next_rank);")) << optimised;
  EXPECT_FALSE(has(optimised, "share.refresh(")) << optimised;  // read at masters only
}

// An edge property handed in (the graph's weights, viewed where the partition keeps them) becomes
// the program's own copy before the program writes it edge by edge; one it only reads stays a view.
TEST(Codegen, AWrittenEdgePropertyParameterIsOwnedFirst) {
  const std::string cpp = generate(
      "function f(Graph g, propEdge<int> w) {\n"
      "  forall (v in g.nodes()) {\n"
      "    forall (nbr in g.neighbors(v)) {\n"
      "      edge e = g.get_edge(v, nbr);\n"
      "      e.w = 1;\n"
      "    }\n"
      "  }\n"
      "}\n");
  EXPECT_TRUE(has(cpp, "  w.own();  // written edge by edge\n")) << cpp;
  const std::string sssp = shipped("sssp");
  EXPECT_FALSE(has(sssp, ".own()")) << sssp;
}

// A double stored in a float is rounded where the program says so, a float stored in a double not.
TEST(Codegen, ADoubleIntoAFloatIsACast) {
  const std::string cpp = generate(
      "function f(Graph g, propNode<float> x, double d) {\n"
      "  float y = d;\n"
      "  double z = y;\n"
      "  forall (v in g.nodes()) {\n"
      "    v.x = d / 2;\n"
      "  }\n"
      "}\n");
  EXPECT_TRUE(has(cpp, "float y = static_cast<float>(d);")) << cpp;
  EXPECT_TRUE(has(cpp, "double z = y;")) << cpp;
  EXPECT_TRUE(has(cpp, "x.put(v, static_cast<float>(invariant_5_11_));")) << cpp;  // hoisted, then rounded
}

// An expression of the loop's vertex: a local before the neighbour loop.
TEST(Codegen, AnExpressionOfTheVertexBecomesALocal) {
  const std::string cpp = generate(
      "function f(Graph g, propNode<double> x, propNode<double> y) {\n"
      "  forall (v in g.nodes()) {\n"
      "    double s = 0;\n"
      "    for (u in g.nodes_to(v)) { s = s + u.x * (v.x + 1); }\n"
      "    v.y = s;\n"
      "  }\n"
      "}\n");
  EXPECT_TRUE(has(cpp,
                  "const double hoisted_4_47_ = (x.get(v) + 1);  // hoisted: once per v, not once per edge\n"
                  "    const std::span<const rt::local> row_u_"))
      << cpp;
  EXPECT_TRUE(has(cpp, "s = (s + (x.get(u) * hoisted_4_47_));")) << cpp;
}

// The function's scalars a neighbour loop reads are copied into locals of the node before it (a
// reference would be reloaded after every update); those it updates, and the loop's own, are not.
TEST(Codegen, ScalarsANeighbourLoopReadsAreCopiedBeforeIt) {
  const std::string cpp = shipped("bfs");
  EXPECT_TRUE(has(cpp,
                  "const std::int32_t depth_here_ = depth;\n"
                  "        const auto level_by_0_ = level.reducer<rt::Min>();"))
      << cpp;
  EXPECT_TRUE(has(cpp, "level_by_0_.reduce(nbr, g.narrow<std::int32_t, rt::Min>((std::int64_t{depth_here_} + 1), "))
      << cpp;
  EXPECT_TRUE(has(cpp, "depth += 1;")) << cpp;  // outside the loop, the variable itself
  const std::string shared = generate(
      "function f(Graph g, propNode<int> x) {\n"
      "  int k = 2;\n"
      "  long total = 0;\n"
      "  forall (v in g.nodes()) {\n"
      "    forall (u in g.neighbors(v)) { total += u.x * k; }\n"
      "  }\n"
      "}\n");
  EXPECT_TRUE(has(shared, "const std::int32_t k_here_ = k;")) << shared;
  EXPECT_FALSE(has(shared, "total_here_")) << shared;  // reduced in the loop: never a copy
  const std::string naive = shipped("bfs", rt::Generation::naive);
  EXPECT_FALSE(has(naive, "_here_")) << naive;
  EXPECT_FALSE(has(naive, "reducer<")) << naive;
}

// bc's sigma is updated in a reduction-exclusive statement, so it is not cache-safe; its reverse
// sweep reaches no reduction, so it is not reduction-exclusive and reads through the window.
TEST(Codegen, TheBypassOnlyInsideReductionExclusiveStatements) {
  const std::string cpp = shipped("bc");
  EXPECT_TRUE(has(cpp, "sigma_by_0_.reduce(w, sigma_by_0_.load(v));")) << cpp;
  EXPECT_TRUE(has(cpp, "sigma.refresh(rt::Fetch::all);")) << cpp;
  EXPECT_TRUE(has(cpp, "delta.refresh(rt::Fetch::changed);")) << cpp;
  EXPECT_TRUE(has(cpp, "if (!bfs_14_.child(v, w)) continue;")) << cpp;
  EXPECT_TRUE(has(cpp, "delta.put(v, (delta.get(v) + ((sigma.get(v) / sigma.get(w)) * (1 + delta.get(w)))));")) << cpp;
}

// tc's loop reaches four reductions: not aggregated, so each reduction statement has its queue
// even in the optimised generation; the shared count is a partial per thread either way.
TEST(Codegen, ANotAggregatedPulseQueuesEachReductionStatement) {
  const std::string cpp = shipped("tc");
  EXPECT_TRUE(has(cpp, "// pulse: reductions queued per statement")) << cpp;
  EXPECT_EQ(count(cpp, "rt::ReductionQueue<std::int64_t>"), 3u) << cpp;
  EXPECT_TRUE(has(cpp, "partial_triangles_11_.reduce(member_, 1);")) << cpp;
  EXPECT_TRUE(has(cpp, "if (g.has_edge(u, w)) {")) << cpp;
  EXPECT_TRUE(has(cpp, "g.prepare_adjacency();")) << cpp;
}

TEST(Codegen, NamesThatAreCppKeywordsAreRenamed) {
  const std::string cpp = generate("function f(Graph g) {\n  int class = 1;\n  class = class + 1;\n}\n");
  EXPECT_TRUE(has(cpp, "std::int32_t sp_class = 1;")) << cpp;
  EXPECT_TRUE(has(cpp, "sp_class = (sp_class + 1);")) << cpp;
}

// The partition each generation needs: the naive one's as the loops are written; the optimised one
// drops pagerank's complete in-edges (its pull is split) and adds each rank's own in-edges where
// pulls run (pagerank's split pull, bfs's bottom-up rounds).
TEST(Codegen, NeedsFollowTheNeighbourLoops) {
  using enum rt::Layout;
  for (const auto& [name, out, in, optimised, own_in] :
       {std::tuple{"sssp", true, false, out, false}, std::tuple{"bfs", true, false, out, true},
        std::tuple{"pagerank", false, true, out, true}, std::tuple{"cc", true, true, both, false},
        std::tuple{"tc", true, false, out, false}, std::tuple{"bc", true, false, out, false}}) {
    const Program p = front_end(find_shipped_program(name)->source, name);
    const rt::Needs needs = needs_of(p.functions[0]);
    EXPECT_EQ(needs.out_edges, out) << name;
    EXPECT_EQ(needs.in_edges, in) << name;
    EXPECT_EQ(needs.layout(rt::Generation::optimised), optimised) << name;
    EXPECT_EQ(needs.own_in_edges(rt::Generation::optimised), own_in) << name;
    EXPECT_FALSE(needs.own_in_edges(rt::Generation::naive)) << name;
  }
  EXPECT_EQ(needs_of(front_end(find_shipped_program("pagerank")->source, "pagerank").functions[0])
                .layout(rt::Generation::naive),
            in);
}

// bfs's rounds go either way: a pull over every node the offer would still lower, stopping at its
// first flagged in-neighbour, or the push as written; the naive generation only pushes.
TEST(Codegen, BfsRoundsMayPull) {
  const std::string optimised = shipped("bfs");
  EXPECT_TRUE(has(optimised, "rt::Direction direction_15_5_(g);")) << optimised;
  EXPECT_TRUE(has(optimised, "if (direction_15_5_.pulls(frontier)) {")) << optimised;
  // A chunk of nodes at a time, what they all read taken once, before the nodes' loop.
  EXPECT_TRUE(has(optimised,
                  "g.for_pulled([&](const auto in_, const rt::local begin_, const rt::local end_, [[maybe_unused]] "
                  "unsigned member_) {"))
      << optimised;
  // The offer, the same for every node, is computed (and narrowed) once a chunk.
  EXPECT_TRUE(
      has(optimised,
          "const auto frontier_flagged_ = frontier.view();\n"
          "        const std::int32_t offer_17_9_ = g.narrow<std::int32_t, rt::Min>((std::int64_t{depth_here_} + 1), "))
      << optimised;
  EXPECT_TRUE(has(optimised,
                  "        for (rt::local nbr = begin_; nbr < end_; ++nbr) {\n"
                  "          if (!level_by_0_.moves(nbr, offer_17_9_)) continue;\n"))
      << optimised;
  EXPECT_TRUE(has(optimised, "level_by_0_.reduce_exclusive(nbr, offer_17_9_, also_17_);")) << optimised;
  EXPECT_TRUE(has(optimised,
                  "for (const rt::local v : in_.neighbors(nbr)) {\n"
                  "            if (!frontier_flagged_.test(v)) continue;\n"))
      << optimised;
  EXPECT_TRUE(has(optimised, "break;  // every flagged in-neighbour offers the same")) << optimised;
  // The pulled node is its thread's alone: its reduction and multi-assignment take no atomics;
  // the push's may meet other threads' at a node.
  EXPECT_TRUE(has(optimised, "level_by_0_.reduce_exclusive(nbr, ")) << optimised;
  EXPECT_TRUE(has(optimised, "next_frontier.store_exclusive(n_, true);")) << optimised;
  EXPECT_TRUE(has(optimised, "} else {")) << optimised;
  EXPECT_TRUE(has(optimised, "g.for_flagged(frontier, ")) << optimised;
  EXPECT_TRUE(has(optimised, "level_by_0_.reduce(nbr, ")) << optimised;
  EXPECT_TRUE(has(optimised, "next_frontier.store(n_, true);")) << optimised;
  const std::string naive = shipped("bfs", rt::Generation::naive);
  EXPECT_FALSE(has(naive, "Direction")) << naive;
}

void expect_refused(std::string_view source, Location where, std::string_view message) {
  try {
    generate(source);
    FAIL() << "generated " << source;
  } catch (const CompileError& e) {
    EXPECT_EQ(e.location(), where) << e.what();
    EXPECT_TRUE(has(e.message(), message)) << e.what();
  }
}

TEST(Codegen, RefusesWhatItCannotDistribute) {
  expect_refused(
      "function f(Graph g, propNode<int> d, propNode<node> parent) {\n"
      "  forall (v in g.nodes()) {\n    forall (n in g.neighbors(v)) {\n"
      "      <n.d, n.parent> = <Min(n.d, v.d + 1), v>;\n    }\n  }\n}\n",
      {4, 45}, "expected a value the same for every node in a multi-assignment");
  expect_refused(
      "function f(Graph g, propNode<int> p) {\n  forall (v in g.nodes()) {\n"
      "    forall (n in g.nodes_to(v)) {\n      n.p = 2;\n    }\n  }\n}\n",
      {4, 7}, "expected an assignment to a property of the vertex loop's node");
  // A program's own edge property set edge by edge lives at out-edges: not read over in-edges.
  expect_refused(
      "function f(Graph g, propNode<long> t) {\n  propEdge<long> m;\n  forall (v in g.nodes()) {\n"
      "    forall (n in g.neighbors(v)) {\n      edge e = g.get_edge(v, n);\n      e.m = 2;\n    }\n  }\n"
      "  forall (v in g.nodes()) {\n    for (u in g.nodes_to(v)) {\n      edge e = g.get_edge(u, v);\n"
      "      v.t += e.m;\n    }\n  }\n}\n",
      {12, 14}, "expected m read over out-edges (g.neighbors), found it read over an in-edge: it is set edge by "
                "edge (at 6:7)");
}

// A neighbour loop's variable that the generated code never reads is marked [[maybe_unused]] (the
// programs compile under -Werror): one that only names the edge in hand (g.get_edge(u, v)), which
// the optimised generation reads by its index, and one no statement names.
TEST(Codegen, ALoopVariableNothingNamesIsMarkedUnused) {
  const std::string source =
      "function f(Graph g, propNode<long> t, propEdge<long> w) {\n  forall (v in g.nodes()) {\n"
      "    for (u in g.nodes_to(v)) {\n      edge e = g.get_edge(u, v);\n      v.t += e.w;\n    }\n  }\n}\n";
  const std::string optimised = generate(source);
  EXPECT_TRUE(has(optimised, "[[maybe_unused]] const rt::local u = row_u_[k_u_];")) << optimised;
  EXPECT_TRUE(has(optimised, "t_by_0_.reduce(v, w.in(e));")) << optimised;
  const std::string naive = generate(source, rt::Generation::naive);
  EXPECT_TRUE(has(naive, "for (const rt::local u : g.in_neighbors(v))")) << naive;
  EXPECT_TRUE(has(naive, "g.find_in_edge(v, u)")) << naive;
  // A loop for its count alone names its variable nowhere, in either generation.
  const std::string counting =
      "function f(Graph g, propNode<long> t) {\n  forall (v in g.nodes()) {\n    long d = 0;\n"
      "    for (n in g.neighbors(v)) {\n      d++;\n    }\n    v.t = d;\n  }\n}\n";
  EXPECT_TRUE(has(generate(counting), "[[maybe_unused]] const rt::local n = row_n_[k_n_];")) << generate(counting);
  EXPECT_TRUE(has(generate(counting, rt::Generation::naive), "for ([[maybe_unused]] const rt::local n : "))
      << generate(counting, rt::Generation::naive);
}

}  // namespace codegen_test
}  // namespace courier::dsl
