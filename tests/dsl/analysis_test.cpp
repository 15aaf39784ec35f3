// The analyses of paper 004 (Definitions 1-3, Lemma 1) on small programs with known answers, and
// on the shipped programs.
#include "courier/dsl/analysis.hpp"

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "courier/dsl/front_end.hpp"
#include "courier/dsl/shipped_programs.hpp"

namespace courier::dsl {
namespace analysis_test {

std::string at(Location l) { return std::to_string(l.line) + ":" + std::to_string(l.column); }

// Adds `item` to a list written "a,b,c".
void add(std::string& list, const std::string& item) {
  if (!list.empty()) list += ',';
  list += item;
}

std::string names(const std::vector<const Symbol*>& symbols) {
  std::string out;
  for (const Symbol* s : symbols) add(out, s->name);
  return out;
}

// One program and its analysis, summarised in short strings that a test compares whole.
struct Analysed {
  explicit Analysed(std::string_view source) : program(front_end(source, "t.sp")), analysis(analyse(program)) {}
  const FunctionAnalysis& fa() const { return analysis.functions.at(0); }

  // "LINE:COL D1 R=LINE:COL E=a,b" for Definition 1, "LINE:COL L1 in LINE:COL" for Lemma 1.
  std::vector<std::string> exclusive() const {
    std::vector<std::string> out;
    for (const ExclusiveStatement& x : fa().exclusive) {
      out.push_back(x.enclosing
                        ? at(x.statement->location) + " L1 in " + at(x.enclosing->location)
                        : at(x.statement->location) + " D1 R=" + at(x.reduction->location) + " E=" + names(x.elements));
    }
    return out;
  }
  // "LINE:COL reductions=N" or "LINE:COL NAME read|updated at LINE:COL".
  std::vector<std::string> not_exclusive() const {
    std::vector<std::string> out;
    for (const NotExclusive& n : fa().not_exclusive) {
      out.push_back(n.reductions.size() > 1
                        ? at(n.statement->location) + " reductions=" + std::to_string(n.reductions.size())
                        : at(n.statement->location) + " " + n.conflict->name +
                              (n.conflict_updates ? " updated at " : " read at ") + at(n.conflict_location));
    }
    return out;
  }
  // "NAME safe reads=LINE:COL,..." or "NAME unsafe updates=LINE:COL@LINE:COL,...".
  std::vector<std::string> properties() const {
    std::vector<std::string> out;
    for (const CacheSafety& c : fa().properties) {
      std::string line = c.property->name + (c.safe ? " safe reads=" : " unsafe updates=");
      std::string places;
      if (c.safe) {
        for (Location l : c.reads) add(places, at(l));
      } else {
        for (const auto& u : c.updates) add(places, at(u.location) + "@" + at(u.in->location));
      }
      out.push_back(line + places);
    }
    return out;
  }
  // "LINE:COL KIND [aggregated] sync=a,b [assigns=c] [remote=LINE:COL] [per LINE:COL]".
  std::vector<std::string> pulses() const {
    std::vector<std::string> out;
    static constexpr const char* kKinds[] = {"loop", "bfs", "reverse", "convergence"};
    for (const Pulse& p : fa().pulses) {
      std::string line = at(p.statement->location) + " " + kKinds[static_cast<int>(p.kind)];
      if (p.aggregated) line += " aggregated";
      line += " sync=" + names(p.synchronised);
      if (!p.assigned.empty()) line += " assigns=" + names(p.assigned);
      for (const Stmt* w : p.remote_writes) line += " remote=" + at(w->location);
      if (p.repeated_by) line += " per " + at(p.repeated_by->location);
      out.push_back(line);
    }
    return out;
  }

  // "LINE:COL neighbour|vertex in LINE:COL" hoisted (its loop), "LINE:COL NAME written at LINE:COL" or
  // "LINE:COL integer division" not.
  std::vector<std::string> hoisted() const {
    std::vector<std::string> out;
    for (const Hoisted& h : fa().hoisted) {
      out.push_back(at(h.expression->location) + (h.kind == HoistKind::PerNeighbour ? " neighbour" : " vertex") +
                    " in " + at(h.loop->location));
    }
    for (const NotHoisted& n : fa().not_hoisted) {
      out.push_back(at(n.expression->location) +
                    (n.written ? " " + n.written->name + " written at " + at(n.written_at) : " integer division"));
    }
    return out;
  }

  // "LINE:COL split S+=TERM before LINE:COL" or "LINE:COL not split: REASON".
  std::vector<std::string> splits() const {
    std::vector<std::string> out;
    for (const SplitPull& p : fa().split_pulls)
      out.push_back(at(p.loop->location) + " split " + p.accumulator->name + "+=" + to_source(*p.term) + " before " +
                    at(p.pulse->location));
    for (const NotSplit& n : fa().not_split) out.push_back(at(n.loop->location) + " not split: " + n.reason);
    return out;
  }

  Program program;
  Analysis analysis;
};

using Strings = std::vector<std::string>;

TEST(Analysis, APushIsReductionExclusive) {
  const Analysed a(
      "function f(Graph g, propNode<int> x, propNode<int> y) {\n"
      "  forall (v in g.nodes()) {\n"
      "    forall (n in g.neighbors(v)) {\n"
      "      n.x += v.y;\n"
      "    }\n"
      "  }\n"
      "}\n");
  EXPECT_EQ(a.exclusive(), (Strings{"2:3 D1 R=4:7 E=x", "3:5 L1 in 2:3", "4:7 L1 in 2:3"}));
  EXPECT_EQ(a.not_exclusive(), Strings{});
  EXPECT_EQ(a.properties(), (Strings{"x unsafe updates=4:9@2:3", "y safe reads=4:16"}));
  EXPECT_EQ(a.pulses(), (Strings{"2:3 loop aggregated sync=x"}));
  const Stmt& loop = a.fa().function->body.statements[0];
  ASSERT_NE(a.fa().find_exclusive(loop), nullptr);
  EXPECT_TRUE(a.fa().find_property(*a.fa().function->parameters[2].symbol)->safe);
}

TEST(Analysis, TwoReductionsAreNotExclusiveButEachPartIs) {
  const Analysed a(
      "function f(Graph g, propNode<int> x, propNode<int> y) {\n"
      "  forall (v in g.nodes()) {\n"
      "    forall (n in g.neighbors(v)) { n.x += 1; }\n"
      "    v.y += 1;\n"
      "  }\n"
      "}\n");
  EXPECT_EQ(a.not_exclusive(), (Strings{"2:3 reductions=2"}));
  EXPECT_EQ(a.exclusive(), (Strings{"3:5 D1 R=3:36 E=x", "3:36 L1 in 3:5", "4:5 D1 R=4:5 E=y"}));
  EXPECT_EQ(a.pulses(), (Strings{"2:3 loop sync=x,y"}));  // not aggregated
}

TEST(Analysis, AReadOfTheReducedPropertyOutsideTheReduction) {
  const Analysed a(
      "function f(Graph g, propNode<int> x, propNode<int> y) {\n"
      "  forall (v in g.nodes()) {\n"
      "    forall (n in g.neighbors(v)) { n.x += 1; }\n"
      "    if (v.x > 3) { v.y = 1; }\n"
      "  }\n"
      "}\n");
  EXPECT_EQ(a.not_exclusive(), (Strings{"2:3 x read at 4:11"}));
  EXPECT_EQ(a.exclusive(), (Strings{"3:5 D1 R=3:36 E=x", "3:36 L1 in 3:5"}));
  EXPECT_EQ(a.properties(), (Strings{"x unsafe updates=3:38@3:5", "y safe reads="}));
  EXPECT_EQ(a.pulses(), (Strings{"2:3 loop sync=x assigns=y"}));
}

TEST(Analysis, TheFilterIsPartOfTheStatement) {
  // The filter reads m, which the multi-assignment also sets: the outer loop is not exclusive.
  const Analysed a(
      "function f(Graph g, propNode<int> x) {\n"
      "  propNode<bool> m;\n"
      "  forall (v in g.nodes().filter(m == True)) {\n"
      "    forall (n in g.neighbors(v)) {\n"
      "      <n.x, n.m> = <Min(n.x, v.x + 1), True>;\n"
      "    }\n"
      "  }\n"
      "}\n");
  EXPECT_EQ(a.not_exclusive(), (Strings{"3:3 m read at 3:33"}));
  EXPECT_EQ(a.exclusive(), (Strings{"4:5 D1 R=5:7 E=x,m", "5:7 L1 in 4:5"}));
  EXPECT_EQ(a.properties(), (Strings{"x unsafe updates=5:10@4:5", "m unsafe updates=5:15@4:5"}));
}

TEST(Analysis, ASharedScalar) {
  const Analysed a(
      "function f(Graph g, propNode<int> y) {\n"
      "  long total = 0;\n"
      "  forall (v in g.nodes()) { total += v.y; }\n"
      "  long copy = total;\n"
      "  copy++;\n"
      "  return copy;\n"
      "}\n");
  EXPECT_EQ(a.exclusive(), (Strings{"3:3 D1 R=3:29 E=total", "3:29 L1 in 3:3"}));
  EXPECT_EQ(a.not_exclusive(), Strings{});  // copy++ runs on every rank alike: no reduction
  EXPECT_EQ(a.pulses(), (Strings{"3:3 loop aggregated sync=total"}));
}

TEST(Analysis, APrivateScalarIsNoReduction) {
  const Analysed a(
      "function f(Graph g, propNode<int> y) {\n"
      "  forall (v in g.nodes()) {\n"
      "    int c = 0;\n"
      "    for (n in g.neighbors(v)) { c += 1; }\n"
      "    v.y = c;\n"
      "  }\n"
      "}\n");
  EXPECT_EQ(a.exclusive(), Strings{});
  EXPECT_EQ(a.not_exclusive(), Strings{});
  EXPECT_EQ(a.properties(), (Strings{"y safe reads="}));
  EXPECT_EQ(a.pulses(), (Strings{"2:3 loop sync= assigns=y"}));
}

TEST(Analysis, AnAssignmentInsideAnExclusiveStatementIsNotCacheSafe) {
  const Analysed a(
      "function f(Graph g, propNode<int> x, propNode<int> z) {\n"
      "  long total = 0;\n"
      "  forall (v in g.nodes()) {\n"
      "    v.z = v.x + 1;\n"
      "    total += v.z;\n"
      "  }\n"
      "}\n");
  EXPECT_EQ(a.exclusive(), (Strings{"3:3 D1 R=5:5 E=total", "4:5 L1 in 3:3", "5:5 L1 in 3:3"}));
  EXPECT_EQ(a.properties(), (Strings{"x safe reads=4:13", "z unsafe updates=4:7@3:3"}));
}

TEST(Analysis, WritesToNeighboursAreRemote) {
  const Analysed a(
      "function f(Graph g, propNode<bool> seen) {\n"
      "  forall (v in g.nodes()) {\n"
      "    for (n in g.neighbors(v)) {\n"
      "      n.seen = True;\n"
      "      v.seen = True;\n"
      "    }\n"
      "  }\n"
      "}\n");
  EXPECT_EQ(a.pulses(), (Strings{"2:3 loop sync= assigns=seen remote=4:7"}));
}

TEST(Analysis, AFixedPointAddsAConvergencePulse) {
  const Analysed a(
      "function f(Graph g, propNode<int> x) {\n"
      "  propNode<bool> m;\n"
      "  propNode<bool> next;\n"
      "  bool done = False;\n"
      "  fixedPoint until (done : !m) {\n"
      "    forall (v in g.nodes().filter(m == True)) {\n"
      "      forall (n in g.neighbors(v)) { <n.x, n.next> = <Min(n.x, v.x + 1), True>; }\n"
      "    }\n"
      "    m = next;\n"
      "    g.attachNodeProperty(next = False);\n"
      "  }\n"
      "}\n");
  EXPECT_EQ(a.exclusive(), (Strings{"6:5 D1 R=7:38 E=x,next", "7:7 L1 in 6:5", "7:38 L1 in 6:5"}));
  EXPECT_EQ(a.not_exclusive(), (Strings{"5:3 next read at 9:9"}));
  EXPECT_EQ(a.properties(),
            (Strings{"x unsafe updates=7:41@6:5", "m safe reads=6:35", "next unsafe updates=7:46@6:5"}));
  EXPECT_EQ(a.pulses(), (Strings{"6:5 loop aggregated sync=x,next per 5:3", "5:3 convergence sync=m"}));
}

TEST(Analysis, BfsLevelsAndTheReverseSweep) {
  const Analysed a(
      "function f(Graph g, propNode<double> s, propNode<double> d, node root) {\n"
      "  iterateInBFS (v in g.nodes() from root) {\n"
      "    for (w in g.neighbors(v)) { w.s += v.s; }\n"
      "  }\n"
      "  iterateInReverse (v != root) {\n"
      "    for (w in g.neighbors(v)) { v.d = v.d + w.s; }\n"
      "  }\n"
      "}\n");
  // The BFS as a whole reads s in its reverse sweep; each level's body alone is exclusive.
  EXPECT_EQ(a.not_exclusive(), (Strings{"2:3 s read at 6:47"}));
  EXPECT_EQ(a.exclusive(), (Strings{"3:5 D1 R=3:33 E=s", "3:33 L1 in 3:5"}));
  EXPECT_EQ(a.pulses(), (Strings{"2:3 bfs aggregated sync=s", "5:3 reverse sync= assigns=d"}));
}

TEST(Analysis, SeveralFunctions) {
  const Analysed a("function f(Graph g) { }\nfunction h(Graph g, propNode<int> x) { forall (v in g.nodes()) { } }\n");
  ASSERT_EQ(a.analysis.functions.size(), 2u);
  EXPECT_EQ(a.analysis.functions[1].function->name, "h");
  EXPECT_EQ(a.analysis.functions[1].pulses.size(), 1u);
  EXPECT_TRUE(a.analysis.functions[0].pulses.empty());
}

// ---- the shipped programs

Analysed shipped(std::string_view name) { return Analysed(find_shipped_program(name)->source); }

TEST(AnalysisOfShippedPrograms, Sssp) {
  const Analysed a = shipped("sssp");
  EXPECT_EQ(a.exclusive(),
            (Strings{"13:5 D1 R=16:9 E=dist,modified_next", "14:7 L1 in 13:5", "15:9 L1 in 13:5", "16:9 L1 in 13:5"}));
  EXPECT_EQ(a.not_exclusive(), (Strings{"12:3 modified_next read at 19:16"}));
  EXPECT_EQ(a.properties(), (Strings{"dist unsafe updates=16:14@13:5", "weight safe reads=16:67",
                                     "modified safe reads=13:35", "modified_next unsafe updates=16:24@13:5"}));
  EXPECT_EQ(a.pulses(),
            (Strings{"13:5 loop aggregated sync=dist,modified_next per 12:3", "12:3 convergence sync=modified"}));
}

TEST(AnalysisOfShippedPrograms, Bfs) {
  const Analysed a = shipped("bfs");
  EXPECT_EQ(a.exclusive(), (Strings{"15:5 D1 R=17:9 E=level,next_frontier", "16:7 L1 in 15:5", "17:9 L1 in 15:5"}));
  EXPECT_EQ(a.pulses(),
            (Strings{"15:5 loop aggregated sync=level,next_frontier per 14:3", "14:3 convergence sync=frontier"}));
}

TEST(AnalysisOfShippedPrograms, CcHasTwoAggregatedPulsesPerRound) {
  const Analysed a = shipped("cc");
  EXPECT_EQ(a.exclusive(), (Strings{"14:5 D1 R=16:9 E=label,modified_next", "15:7 L1 in 14:5", "16:9 L1 in 14:5",
                                    "19:5 D1 R=21:9 E=label,modified_next", "20:7 L1 in 19:5", "21:9 L1 in 19:5"}));
  EXPECT_EQ(a.not_exclusive(), (Strings{"13:3 reductions=2"}));
  EXPECT_EQ(a.pulses(),
            (Strings{"8:3 loop sync= assigns=label", "14:5 loop aggregated sync=label,modified_next per 13:3",
                     "19:5 loop aggregated sync=label,modified_next per 13:3", "13:3 convergence sync=modified"}));
}

TEST(AnalysisOfShippedPrograms, PagerankCachesTheRanksItPulls) {
  const Analysed a = shipped("pagerank");
  EXPECT_EQ(a.hoisted(), (Strings{"22:21 neighbour in 21:7"}));  // u.rank / g.count_outNbrs(u)
  EXPECT_EQ(a.not_exclusive(), (Strings{"12:3 reductions=2"}));
  EXPECT_EQ(a.properties(), (Strings{"rank safe reads=15:21,22:23,25:31", "next_rank unsafe updates=30:9@19:5"}));
  EXPECT_EQ(a.pulses(), (Strings{"14:5 loop aggregated sync=dangling per 12:3",
                                 "19:5 loop aggregated sync=change assigns=next_rank per 12:3"}));
}

// Counting each triangle and crediting its three corners makes four reductions in one loop: each
// is reduction-exclusive on its own, the loop is not, and its pulse is not aggregated.
TEST(AnalysisOfShippedPrograms, TriangleCounting) {
  const Analysed a = shipped("tc");
  EXPECT_EQ(a.exclusive(), (Strings{"11:11 D1 R=11:11 E=triangles", "12:11 D1 R=12:11 E=corners",
                                    "13:11 D1 R=13:11 E=corners", "14:11 D1 R=14:11 E=corners"}));
  EXPECT_EQ(a.pulses(), (Strings{"7:3 loop sync=triangles,corners"}));
}

TEST(AnalysisOfShippedPrograms, BetweennessCentrality) {
  const Analysed a = shipped("bc");
  EXPECT_EQ(a.exclusive(), (Strings{"15:7 D1 R=16:9 E=sigma", "16:9 L1 in 15:7"}));
  EXPECT_EQ(a.not_exclusive(), (Strings{"11:3 sigma updated at 12:26", "14:5 sigma read at 21:32"}));
  EXPECT_EQ(a.pulses(), (Strings{"14:5 bfs aggregated sync=sigma per 11:3",
                                 "19:5 reverse sync= assigns=delta,centrality per 11:3"}));
}

// Hoisting: the largest expressions of one node (the neighbour's, or the loop's vertex's) with an
// operator, reading properties the vertex loop does not write and scalars of the collective level.
TEST(Analysis, ExpressionsOfOneNodeAreHoisted) {
  const Analysed a(
      "function f(Graph g, propNode<double> x, propNode<double> y, propNode<double> z) {\n"
      "  double d = 2;\n"
      "  forall (v in g.nodes()) {\n"
      "    double s = 0;\n"
      "    for (u in g.nodes_to(v)) {\n"
      "      s = s + u.x * d / g.count_outNbrs(u) + u.y * (v.x + 1);\n"
      "      s = s + u.x * s + u.x * v.x + u.y;\n"
      "    }\n"
      "    v.z = s;\n"
      "  }\n"
      "}\n");
  // u.x * s reads a scalar of the iteration, u.x * v.x two nodes, u.y has no operator: not listed.
  EXPECT_EQ(a.hoisted(), (Strings{"6:15 neighbour in 5:5", "6:53 vertex in 5:5"}));
  EXPECT_EQ(a.fa().find_hoisted(*a.fa().hoisted[0].expression), &a.fa().hoisted[0]);
}

// Not where a value could differ between two visits of the node: a property the vertex loop
// writes (in the neighbour loop or elsewhere in it); nor an integer division (its nodes unreached
// by the loop could have a zero divisor).
TEST(Analysis, WhatTheVertexLoopWritesIsNotHoisted) {
  const Analysed a(
      "function f(Graph g, propNode<double> x, propNode<double> y, propNode<int> k) {\n"
      "  forall (v in g.nodes()) {\n"
      "    double s = 0;\n"
      "    forall (u in g.neighbors(v)) {\n"
      "      s = s + (u.x + 1) + u.k / g.count_outNbrs(u);\n"
      "      u.x += 1;\n"
      "    }\n"
      "    for (u in g.nodes_to(v)) { s = s + u.y * 2; }\n"
      "    v.y = s;\n"
      "  }\n"
      "}\n");
  EXPECT_EQ(a.hoisted(), (Strings{"5:16 x written at 6:9", "5:27 integer division", "8:40 y written at 9:7"}));
  EXPECT_TRUE(a.fa().hoisted.empty());
}

TEST(AnalysisOfShippedPrograms, PagerankSplitsItsPull) {
  EXPECT_EQ(shipped("pagerank").splits(), (Strings{"21:7 split sum+=u.rank / g.count_outNbrs(u) before 19:5"}));
  EXPECT_TRUE(shipped("cc").fa().split_pulls.empty());  // its in-edge loop takes a Min, not a sum
}

// Split pulls: a sum into a scalar of the node's iteration, of a term that reads only the
// neighbour (its properties the vertex loop does not write, its degrees), literals and collective
// scalars; either form of the addition.
TEST(Analysis, SumsOfTheNeighbourAreSplit) {
  const Analysed a(
      "function f(Graph g, propNode<double> x, propNode<int> k, propNode<double> y, double d) {\n"
      "  forall (v in g.nodes()) {\n"
      "    double s = 0;\n"
      "    long c = 0;\n"
      "    for (u in g.nodes_to(v)) { s = s + u.x * d / g.count_outNbrs(u); }\n"
      "    for (u in g.nodes_to(v)) { c += u.k; }\n"
      "    for (w in g.nodes_to(v)) { c++; }\n"
      "    v.y = s + c;\n"
      "  }\n"
      "}\n");
  EXPECT_EQ(a.splits(), (Strings{"5:5 split s+=u.x * d / g.count_outNbrs(u) before 2:3", "6:5 split c+=u.k before 2:3",
                                 "7:5 split c+=1 before 2:3"}));
  EXPECT_EQ(a.fa().find_split(*a.fa().split_pulls[1].loop), &a.fa().split_pulls[1]);
}

// What is not split, each for its reason; and since one loop is not, none of the function's are
// (its partition keeps masters' complete in-edges anyway).
TEST(Analysis, WhatASplitPullNeeds) {
  const Analysed a(
      "function f(Graph g, propNode<double> x, propNode<double> y) {\n"
      "  double t = 0;\n"
      "  forall (v in g.nodes()) {\n"
      "    double s = 0;\n"
      "    double q = 0;\n"
      "    for (u in g.nodes_to(v)) { s = s + u.x; }\n"
      "    for (u in g.nodes_to(v).filter(x > 0)) { s = s + u.x; }\n"
      "    for (u in g.nodes_to(v)) { s = s + u.x; s = s + 1; }\n"
      "    for (u in g.nodes_to(v)) { s = s * u.x; }\n"
      "    for (u in g.nodes_to(v)) { s = s + v.x; }\n"
      "    for (u in g.nodes_to(v)) { s = s + u.y; }\n"
      "    for (u in g.nodes_to(v)) { t += u.x; }\n"
      "    for (u in g.nodes_to(v)) { q = q + g.count_outNbrs(u); }\n"
      "    v.y = s + q;\n"
      "  }\n"
      "}\n");
  EXPECT_TRUE(a.fa().split_pulls.empty());
  EXPECT_EQ(a.splits(),
            (Strings{"6:5 not split: the loop at 7:5 cannot be split, so masters keep their complete in-edges",
                     "7:5 not split: the loop has a filter",
                     "8:5 not split: expected one statement adding to a scalar (s = s + E or s += E)",
                     "9:5 not split: expected a statement adding to a scalar (s = s + E or s += E)",
                     "10:5 not split: the term reads more than the neighbour's properties and degrees, literals and "
                     "collective scalars",
                     "11:5 not split: the term reads 'y', which the vertex loop writes",
                     "12:5 not split: expected a statement adding to a scalar (s = s + E or s += E)",
                     "13:5 not split: a long term changes value when added to 'q' (double)"}));
}

// Bottom-up steps: bfs's push offers every neighbour depth + 1; sssp's offers depend on the edge and
// the node, cc's on the node.
TEST(AnalysisOfShippedPrograms, BfsMayPullItsRounds) {
  const Analysed bfs = shipped("bfs");
  ASSERT_EQ(bfs.fa().bottom_up.size(), 1u);
  const BottomUp& b = bfs.fa().bottom_up[0];
  EXPECT_EQ(at(b.pulse->location), "15:5");
  EXPECT_EQ(at(b.reduction->location), "17:9");
  EXPECT_EQ(b.flag->name, "frontier");
  EXPECT_EQ(bfs.fa().find_bottom_up(*b.pulse), &b);
  for (const char* name : {"sssp", "cc", "pagerank", "tc", "bc"})
    EXPECT_TRUE(shipped(name).fa().bottom_up.empty()) << name;
}

// What a bottom-up step needs: a loop over flagged nodes whose only statement is a loop over their
// out-neighbours whose only statement offers one value (Min or Max), its set-alongs uniform and not
// the flag.
TEST(Analysis, OnlyUniformOffersOfFlaggedNodesPull) {
  const char* head =
      "function f(Graph g, propNode<int> d, propNode<bool> on, propNode<bool> next, propNode<int> w, int k) {\n";
  auto pulls = [&](const std::string& body) {
    const Analysed a(std::string(head) + body + "}\n");
    return a.fa().bottom_up.size();
  };
  EXPECT_EQ(pulls("  forall (v in g.nodes().filter(on == True)) {\n"
                  "    forall (n in g.neighbors(v)) { <n.d, n.next> = <Min(n.d, k + 1), True>; }\n  }\n"),
            1u);
  EXPECT_EQ(pulls("  forall (v in g.nodes().filter(on)) {\n"
                  "    forall (n in g.neighbors(v)) { n.d = Max(n.d, 3); }\n  }\n"),
            1u);
  // Not filtered on a flag; an offer of the node's own value; a second statement; a filtered
  // neighbour loop; in-neighbours; a set-along of the node's value; the flag set along.
  EXPECT_EQ(pulls("  forall (v in g.nodes()) {\n    forall (n in g.neighbors(v)) { n.d = Min(n.d, k); }\n  }\n"), 0u);
  EXPECT_EQ(pulls("  forall (v in g.nodes().filter(on == True)) {\n"
                  "    forall (n in g.neighbors(v)) { n.d = Min(n.d, v.d + 1); }\n  }\n"),
            0u);
  EXPECT_EQ(pulls("  forall (v in g.nodes().filter(on == True)) {\n"
                  "    forall (n in g.neighbors(v)) { n.d = Min(n.d, k); }\n    v.w = 1;\n  }\n"),
            0u);
  EXPECT_EQ(pulls("  forall (v in g.nodes().filter(on == True)) {\n"
                  "    forall (n in g.neighbors(v).filter(w == 0)) { n.d = Min(n.d, k); }\n  }\n"),
            0u);
  EXPECT_EQ(pulls("  forall (v in g.nodes().filter(on == True)) {\n"
                  "    forall (n in g.nodes_to(v)) { n.d = Min(n.d, k); }\n  }\n"),
            0u);
  EXPECT_EQ(pulls("  forall (v in g.nodes().filter(on == True)) {\n"
                  "    forall (n in g.neighbors(v)) { <n.d, n.w> = <Min(n.d, k), n.w>; }\n  }\n"),
            0u);
  EXPECT_EQ(pulls("  forall (v in g.nodes().filter(on == True)) {\n"
                  "    forall (n in g.neighbors(v)) { <n.d, n.on> = <Min(n.d, k), False>; }\n  }\n"),
            0u);
}

// Property moves: `p = q;` hands q's values over when q is dead afterwards on every way on: the
// loop's next iteration (rewritten by an unfiltered forall, an attach or a copy into q), its
// condition and its end. Each copy kept says why.
std::vector<std::string> moves(const Analysed& a) {
  std::vector<std::string> out;
  for (const PropertyMove& m : a.fa().moves)
    out.push_back(at(m.copy->location) + " moved" + (m.rewritten_by ? " by " + at(m.rewritten_by->location) : ""));
  for (const NotMoved& n : a.fa().not_moved)
    out.push_back(at(n.copy->location) + " copied at " + at(n.at) + ": " + n.reason);
  return out;
}

TEST(Analysis, ACopyWhoseSourceIsDeadMoves) {
  const Analysed a(
      "function f(Graph g, propNode<double> x, int k) {\n"
      "  propNode<double> y;\n"
      "  propNode<double> z;\n"
      "  propNode<double> w;\n"
      "  int i = 0;\n"
      "  while (i < k) {\n"
      "    forall (v in g.nodes()) { double t = v.x + 1; v.y = t; }\n"
      "    x = y;\n"
      "    g.attachNodeProperty(z = 1);\n"
      "    x = z;\n"
      "    i++;\n"
      "  }\n"
      "  x = w;\n"
      "}\n");
  // y: rewritten by the forall at 7:5 in the next iteration, and never read after the loop; z by
  // the attach; w is never read again.
  EXPECT_EQ(moves(a), (Strings{"8:5 moved by 7:5", "10:5 moved by 9:5", "13:3 moved"}));
  EXPECT_EQ(a.fa().find_move(*a.fa().moves[0].copy), &a.fa().moves[0]);
}

TEST(Analysis, ACopyWhoseSourceIsReadAgainCopies) {
  const Analysed a(
      "function f(Graph g, propNode<double> x, propNode<double> p, int k) {\n"
      "  propNode<double> y;\n"
      "  propNode<double> z;\n"
      "  propNode<double> u;\n"
      "  propNode<double> s;\n"
      "  propNode<bool> b;\n"
      "  propNode<bool> c;\n"
      "  int i = 0;\n"
      "  while (i < k) {\n"
      "    forall (v in g.nodes().filter(v.x > 0)) { v.y = 1; }\n"
      "    x = y;\n"
      "    forall (v in g.nodes()) { v.z = v.z + 1; }\n"
      "    x = z;\n"
      "    x = p;\n"
      "    i++;\n"
      "  }\n"
      "  x = u;\n"
      "  forall (v in g.nodes()) { v.x = v.u; }\n"
      "  b = c;\n"
      "  forall (v in g.nodes()) { if (v.x > 0) { v.s = 1; } }\n"
      "  x = s;\n"
      "  forall (v in g.nodes()) { v.s += 1; }\n"
      "}\n");
  EXPECT_EQ(moves(a),
            (Strings{"11:5 copied at 11:5: y is not dead after it: the loop comes back to the copy, which reads it",
                     "13:5 copied at 12:39: z is not dead after it: it is read here first",
                     "14:5 copied at 14:5: p is a parameter: its values are the function's result",
                     "17:3 copied at 18:37: u is not dead after it: it is read here first",
                     "19:3 copied at 19:3: a bool property is copied a word per 64 nodes",
                     "21:3 copied at 22:29: s is not dead after it: it is reduced here first (a reduction "
                     "reads what it updates)"}));
}

TEST(Analysis, ALoopConditionReadingTheSourceKeepsTheCopy) {
  const Analysed a(
      "function f(Graph g, propNode<int> x) {\n"
      "  propNode<int> y;\n"
      "  g.attachNodeProperty(y = 0);\n"
      "  bool done = False;\n"
      "  fixedPoint until (done : y == 0) {\n"
      "    forall (v in g.nodes()) { v.y = 0; }\n"
      "    x = y;\n"
      "  }\n"
      "}\n");
  EXPECT_EQ(moves(a), (Strings{"7:5 copied at 5:28: y is not dead after it: the loop's condition reads it"}));
}

// Loop-invariant expressions of a vertex loop: the largest of no node, reading literals and
// collective scalars the loop does not write, in floating point; not a scalar the loop reduces, a
// per-vertex scalar or an integer.
TEST(Analysis, WhatAVertexLoopDoesNotChangeIsComputedBeforeIt) {
  const Analysed a(
      "function f(Graph g, propNode<double> x, double d, int k) {\n"
      "  double t = 0;\n"
      "  forall (v in g.nodes()) {\n"
      "    double s = v.x * (d / 2) + (t + 1) * (k + 1);\n"
      "    t += s * (d * d);\n"
      "    v.x = (1 - d) / k + s;\n"
      "  }\n"
      "}\n");
  std::vector<std::string> got;
  for (const Invariant& i : a.fa().invariants)
    got.push_back(at(i.expression->location) + " in " + at(i.pulse->location));
  // d / 2, d * d and (1 - d) / k; not (t + 1) (t is reduced), nor k + 1 (an int).
  EXPECT_EQ(got, (Strings{"4:23 in 3:3", "5:15 in 3:3", "6:12 in 3:3"}));
}

TEST(AnalysisOfShippedPrograms, PagerankMovesItsRanks) {
  EXPECT_EQ(moves(shipped("pagerank")), (Strings{"32:5 moved by 19:5"}));
}

// Loop fusion: a per-neighbour hoist is computed by the nearest vertex loop over every node
// before its pulse, unless something between (that loop included) writes what it reads, a loop
// stands between, or the earlier loop is filtered on a flag (it visits the flagged nodes only).
TEST(Analysis, AHoistIsComputedByTheVertexLoopBeforeItsPulse) {
  const Analysed a(
      "function f(Graph g, propNode<double> x, propNode<double> y, propNode<bool> b, double d) {\n"
      "  double t = 0;\n"
      "  forall (v in g.nodes().filter(g.count_outNbrs(v) == 0)) { t += v.x; }\n"
      "  d = t;\n"
      "  forall (v in g.nodes()) { double s = 0; for (u in g.nodes_to(v)) { s = s + u.x * 2; } v.y = s; }\n"
      "  forall (v in g.nodes()) { v.x = 1; }\n"
      "  forall (v in g.nodes()) { double s = 0; for (u in g.nodes_to(v)) { s = s + u.x * 3; } v.y = s; }\n"
      "  forall (v in g.nodes().filter(b == True)) { t += v.x; }\n"
      "  forall (v in g.nodes()) { double s = 0; for (u in g.nodes_to(v)) { s = s + u.x * d; } v.y = s; }\n"
      "}\n");
  std::vector<std::string> fused;
  for (const Hoisted& h : a.fa().hoisted)
    fused.push_back(at(h.expression->location) + (h.computed_in ? " in " + at(h.computed_in->location) : " alone"));
  // 5: the dangling-style sum at 3 (d, written between, is not read); 7: 6 writes x; 9: 8 is
  // flagged.
  EXPECT_EQ(fused, (Strings{"5:78 in 3:3", "7:78 alone", "9:78 alone"}));
}

TEST(Analysis, AnalysisListsSplitPulls) {
  const Program program = front_end(find_shipped_program("pagerank")->source, "pagerank.sp");
  const std::string text = format_analysis(program, analyse(program));
  EXPECT_NE(text.find("Split pulls (in-edge sums over each rank's own edges):\n  21:7 for (u in g.nodes_to(v)): sum += "
                      "u.rank / g.count_outNbrs(u) summed where the edges are before the loop at 19:5, mirrors' sums "
                      "added into their masters (one bulk reduction)\n"),
            std::string::npos)
      << text;
}

TEST(Analysis, AnalysisListsHoistedExpressions) {
  const Program program = front_end(find_shipped_program("pagerank")->source, "pagerank.sp");
  const std::string text = format_analysis(program, analyse(program));
  EXPECT_NE(text.find("Hoisted out of neighbour and vertex loops (loop-invariant expressions):\n  22:21 u.rank / "
                      "g.count_outNbrs(u): one value per u: computed once per node before the pulse of the loop at "
                      "19:5"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("; computed by the loop at 14:5, not in a pass of its own (fused)\n"), std::string::npos) << text;
  EXPECT_NE(
      text.find("  24:23 (1 - damping) / n: of no node: computed once before the loop at 19:5, instead of once per "
                "node\n  24:59 dangling / n: of no node"),
      std::string::npos)
      << text;
  EXPECT_NE(text.find("Property copies moved (the source dead after the copy):\n  32:5 rank = next_rank: every node's "
                      "next_rank is written at 19:5 before it is read again; the two exchange their values\n"),
            std::string::npos)
      << text;
}

}  // namespace analysis_test
}  // namespace courier::dsl
