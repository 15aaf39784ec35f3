// The language's constructs that the shipped programs leave out, compiled and run: *=, -=, --, &&=, ||=
// (on properties, shared scalars and scalars private to a node), Max in a multi-assignment and on a
// shared node, ++ on a shared count and on a property, do ... while (collective and inside a vertex
// loop), and a program's own propEdge with attachEdgeProperty (tests/dsl/programs/*.sp, both
// generations).
// Each runs on the algorithms' test graphs at 1 to 4 ranks, through the loopback and lci channels,
// against answers worked out here over the whole graph; every rank must keep the same scalars.
#include <gtest/gtest.h>

#include <bit>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "algo/algo_graphs.hpp"
#include "courier/dsl/test_programs/counting.hpp"
#include "courier/dsl/test_programs/edge_marks.hpp"
#include "courier/dsl/test_programs/highest.hpp"
#include "courier/dsl/test_programs/logic.hpp"
#include "courier/dsl/test_programs/products.hpp"
#include "courier/dsl/test_programs/rounds.hpp"
#include "courier/graph/csr.hpp"
#include "courier/vertex/gather.hpp"
#include "support/ranks.hpp"

namespace courier::dsl {
namespace constructs_test {

namespace tp = test_programs;
using rt::Generation;

// What a run left: node values gathered on rank 0 (bools as 0 and 1), and the scalars each rank kept.
struct Result {
  std::map<std::string, std::vector<std::int64_t>> nodes;
  std::map<std::string, double> scalars;
};

// Handed to a program's runner on every rank: collects what the test then compares.
class Recorder {
 public:
  Recorder(rt::Graph& g, Result& result) : g_(g), result_(result) {}

  template <class Property>
  void nodes(const std::string& name, const Property& p) {
    std::vector<std::int64_t> mine(g_.masters());
    for (rt::local v = 0; v < g_.masters(); ++v) mine[v] = static_cast<std::int64_t>(p[v]);
    std::vector<std::int64_t> all = vertex::gather_masters<std::int64_t>(g_.engine(), std::move(mine));
    if (g_.engine().rank() == 0) result_.nodes[name] = std::move(all);
  }
  void kept(const std::string& name) { result_.scalars[name] = g_.kept<double>(name); }
  void scalar(const std::string& name, double value) { result_.scalars[name] = value; }

 private:
  rt::Graph& g_;
  Result& result_;
};

using Runner = std::function<void(rt::Graph&, bool naive, Recorder&)>;
using Answer = std::function<Result(const graph::Csr&, std::size_t graph)>;

// The partition the dsl engine makes for `needs` (these programs visit one kind of row each).
std::vector<dist::LocalGraph> partition(const graph::EdgeList& edges, const rt::Needs& needs, Generation generation,
                                        int ranks) {
  const rt::Layout layout = needs.layout(generation);
  EXPECT_NE(layout, rt::Layout::both) << "a test program visiting both rows needs the engine's partition";
  return dist::partition_in_memory(edges, layout == rt::Layout::in ? dist::Policy::iec : dist::Policy::oec, ranks,
                                   layout == rt::Layout::in || needs.own_in_edges(generation));
}

void expect_same(const Result& got, const Result& want, const std::string& where) {
  for (const auto& [name, values] : want.nodes) {
    const auto found = got.nodes.find(name);
    ASSERT_NE(found, got.nodes.end()) << name << ", " << where;
    ASSERT_EQ(found->second.size(), values.size()) << name << ", " << where;
    for (std::size_t v = 0; v < values.size(); ++v)
      ASSERT_EQ(found->second[v], values[v]) << name << " of node " << v << ", " << where;
  }
  for (const auto& [name, value] : want.scalars) {
    const auto found = got.scalars.find(name);
    ASSERT_NE(found, got.scalars.end()) << name << ", " << where;
    EXPECT_EQ(found->second, value) << name << ", " << where;
  }
}

void expect_answers(const rt::Needs& needs, const Runner& run, const Answer& answer) {
  const std::vector<test_support::NamedGraph> graphs = test_support::test_graphs(false);
  for (std::size_t i = 0; i < graphs.size(); ++i) {
    const Result want = answer(graph::build_csr(graphs[i].edges), i);
    for (int ranks = 1; ranks <= 4; ++ranks) {
      // Both channels, alternately: each graph meets each at two rank counts.
      const auto channel = (ranks + i) % 2 ? test_support::Channel::lci : test_support::Channel::loopback;
      for (const Generation generation : {Generation::optimised, Generation::naive}) {
        const bool naive = generation == Generation::naive;
        const std::string where = graphs[i].name + " at " + std::to_string(ranks) + " ranks" +
                                  (channel == test_support::Channel::lci ? " (lci)" : " (loopback)") +
                                  (naive ? ", naive" : ", optimised");
        std::vector<Result> results(static_cast<std::size_t>(ranks));
        test_support::on_every_rank(
            partition(graphs[i].edges, needs, generation, ranks), 2,
            [&](vertex::Engine& e) {
              rt::Graph g(e, needs.layout(generation), generation);
              Recorder recorder(g, results[static_cast<std::size_t>(e.rank())]);
              run(g, naive, recorder);
            },
            channel);
        expect_same(results[0], want, where);
        for (std::size_t r = 1; r < results.size(); ++r)
          EXPECT_EQ(results[r].scalars, results[0].scalars) << "rank " << r << ", " << where;
      }
    }
  }
}

// The sources of every node's in-edges.
std::vector<std::vector<graph::vertex_t>> in_neighbours(const graph::Csr& csr) {
  std::vector<std::vector<graph::vertex_t>> in(csr.num_vertices());
  for (graph::vertex_t u = 0; u < csr.num_vertices(); ++u)
    for (const graph::vertex_t w : csr.neighbors(u)) in[w].push_back(u);
  return in;
}

std::int64_t degree(const graph::Csr& csr, graph::vertex_t v) { return static_cast<std::int64_t>(csr.degree(v)); }

TEST(DslConstructs, ProductsAndDifferences) {
  const Runner run = [](rt::Graph& g, bool naive, Recorder& out) {
    rt::NodeProperty<std::int64_t> sign(g), balance(g), parity(g);
    rt::NodeProperty<std::int32_t> flips(g), dip(g);
    (naive ? tp::naive::products : tp::products)(g, sign, balance, parity, flips, dip);
    out.nodes("flips", flips);
    out.nodes("dip", dip);
    out.nodes("sign", sign);
    out.nodes("balance", balance);
    out.nodes("parity", parity);
    out.kept("scale");
    out.kept("down");
  };
  expect_answers(tp::products_needs, run, [](const graph::Csr& csr, std::size_t) {
    Result want;
    const auto in = in_neighbours(csr);
    const graph::vertex_t n = csr.num_vertices();
    auto& sign = want.nodes["sign"] = std::vector<std::int64_t>(n, 1);
    auto& balance = want.nodes["balance"] = std::vector<std::int64_t>(n, -1);
    auto& parity = want.nodes["parity"] = std::vector<std::int64_t>(n);
    auto& flips = want.nodes["flips"] = std::vector<std::int64_t>(n, 1);
    auto& dip = want.nodes["dip"] = std::vector<std::int64_t>(n, 0);
    double scale = 1;
    for (graph::vertex_t w = 0; w < n; ++w) {
      parity[w] = (degree(csr, w) % 2 ? -100 : 100) - 2 * degree(csr, w);
      for (const graph::vertex_t u : in[w]) {
        if (degree(csr, u) % 2 == 1) sign[w] = -sign[w];
        balance[w] -= degree(csr, u) + 1;
        flips[w] = -flips[w];
        dip[w] -= 2;
      }
      if (degree(csr, w) % 4 == 1) scale *= 2;
    }
    want.scalars["scale"] = scale;
    want.scalars["down"] = -static_cast<double>(n);
    return want;
  });
}

TEST(DslConstructs, AllAndAny) {
  const Runner run = [](rt::Graph& g, bool naive, Recorder& out) {
    rt::NodeFlags all_even(g), any_above(g), below(g);
    (naive ? tp::naive::logic : tp::logic)(g, all_even, any_above, below);
    out.nodes("all_even", all_even);
    out.nodes("any_above", any_above);
    out.nodes("below", below);
    out.kept("sorted");
    out.kept("loops");
  };
  expect_answers(tp::logic_needs, run, [](const graph::Csr& csr, std::size_t) {
    Result want;
    const graph::vertex_t n = csr.num_vertices();
    auto& all_even = want.nodes["all_even"] = std::vector<std::int64_t>(n, 1);
    auto& any_above = want.nodes["any_above"] = std::vector<std::int64_t>(n, 0);
    auto& below = want.nodes["below"] = std::vector<std::int64_t>(n, 0);
    bool sorted = true, loops = false;
    for (graph::vertex_t u = 0; u < n; ++u) {
      bool self = false, smaller = false;
      for (const graph::vertex_t w : csr.neighbors(u)) {
        if (degree(csr, u) % 2 != 0) all_even[w] = 0;
        if (w > u) any_above[u] = 1;
        sorted = sorted && w >= u;
        loops = loops || w == u;
        self = self || w == u;
        smaller = smaller || w < u;
      }
      below[u] = !self && smaller;
    }
    want.scalars["sorted"] = sorted;
    want.scalars["loops"] = loops;
    return want;
  });
}

TEST(DslConstructs, MaxInAMultiAssignmentAndOnASharedNode) {
  // start: 5 on some graphs, the last node on the others (then no edge's target passes it).
  const auto start = [](std::size_t graph, graph::vertex_t n) -> graph::vertex_t { return graph % 2 ? n - 1 : 5; };
  std::size_t graph = 0;  // the graph expect_answers is on, as its answer saw it
  const Runner run = [&](rt::Graph& g, bool naive, Recorder& out) {
    rt::NodeProperty<rt::node> top(g);
    rt::NodeFlags raised(g);
    (naive ? tp::naive::highest : tp::highest)(g, top, raised, start(graph, static_cast<rt::node>(g.num_nodes())));
    out.nodes("top", top);
    out.nodes("raised", raised);
    out.kept("largest");
  };
  expect_answers(tp::highest_needs, run, [&](const graph::Csr& csr, std::size_t i) {
    graph = i;
    Result want;
    const graph::vertex_t n = csr.num_vertices();
    auto& top = want.nodes["top"] = std::vector<std::int64_t>(n);
    auto& raised = want.nodes["raised"] = std::vector<std::int64_t>(n, 0);
    for (graph::vertex_t w = 0; w < n; ++w) top[w] = static_cast<std::int64_t>(w);
    graph::vertex_t largest = start(i, n);
    for (graph::vertex_t u = 0; u < n; ++u) {
      for (const graph::vertex_t w : csr.neighbors(u)) {
        top[w] = std::max(top[w], static_cast<std::int64_t>(u));
        if (u > w) raised[w] = 1;
        largest = std::max(largest, w);
      }
    }
    want.scalars["largest"] = static_cast<double>(largest);
    return want;
  });
}

TEST(DslConstructs, CountsWithPlusPlus) {
  const Runner run = [](rt::Graph& g, bool naive, Recorder& out) {
    rt::NodeProperty<std::int64_t> hits(g);
    out.scalar("returned", static_cast<double>((naive ? tp::naive::counting : tp::counting)(g, hits)));
    out.nodes("hits", hits);
    out.kept("count");
    out.kept("forward");
  };
  expect_answers(tp::counting_needs, run, [](const graph::Csr& csr, std::size_t) {
    Result want;
    const graph::vertex_t n = csr.num_vertices();
    auto& hits = want.nodes["hits"] = std::vector<std::int64_t>(n, 0);
    double count = 0, forward = 0;
    for (graph::vertex_t u = 0; u < n; ++u) {
      if (degree(csr, u) > 2) ++count;
      for (const graph::vertex_t w : csr.neighbors(u)) {
        ++hits[w];
        if (w > u) ++forward;
      }
    }
    want.scalars["returned"] = want.scalars["count"] = count;
    want.scalars["forward"] = forward;
    return want;
  });
}

TEST(DslConstructs, DoWhileRunsItsBodyUntilTheConditionFails) {
  const Runner run = [](rt::Graph& g, bool naive, Recorder& out) {
    rt::NodeProperty<std::int64_t> visits(g), bits(g);
    (naive ? tp::naive::rounds : tp::rounds)(g, visits, bits);
    out.nodes("visits", visits);
    out.nodes("bits", bits);
    for (const char* name : {"round", "k", "steps", "above"}) out.kept(name);
  };
  expect_answers(tp::rounds_needs, run, [](const graph::Csr& csr, std::size_t) {
    Result want;
    const graph::vertex_t n = csr.num_vertices();
    want.nodes["visits"] = std::vector<std::int64_t>(n, 0 + 1 + 2 + 3);
    auto& bits = want.nodes["bits"] = std::vector<std::int64_t>(n);
    std::int64_t most = 0;
    for (graph::vertex_t u = 0; u < n; ++u) {
      most = std::max(most, degree(csr, u));
      bits[u] = std::max<std::int64_t>(1, std::bit_width(static_cast<std::uint64_t>(degree(csr, u))));
    }
    // k doubles past the largest out-degree; the round that finds no node of k out-edges counts too.
    std::int64_t k = 1, steps = 1;
    while (k <= most) {
      k *= 2;
      ++steps;
    }
    want.scalars["round"] = 4;
    want.scalars["k"] = static_cast<double>(2 * k);
    want.scalars["steps"] = static_cast<double>(steps);
    want.scalars["above"] = 0;
    return want;
  });
}

TEST(DslConstructs, AProgramsOwnEdgeProperty) {
  const Runner run = [](rt::Graph& g, bool naive, Recorder& out) {
    rt::NodeProperty<std::int64_t> total(g);
    (naive ? tp::naive::edge_marks : tp::edge_marks)(g, total);
    out.nodes("total", total);
  };
  expect_answers(tp::edge_marks_needs, run, [](const graph::Csr& csr, std::size_t) {
    Result want;
    auto& total = want.nodes["total"] = std::vector<std::int64_t>(csr.num_vertices(), 0);
    for (graph::vertex_t u = 0; u < csr.num_vertices(); ++u)
      for (const graph::vertex_t w : csr.neighbors(u)) total[w] += w < u ? degree(csr, u) + 10 * degree(csr, w) : 3;
    return want;
  });
}

TEST(DslConstructs, AProgramsOwnEdgePropertyOverInEdges) {
  const Runner run = [](rt::Graph& g, bool naive, Recorder& out) {
    rt::NodeProperty<std::int64_t> total(g);
    (naive ? tp::naive::in_marks : tp::in_marks)(g, total);
    out.nodes("total", total);
  };
  expect_answers(tp::in_marks_needs, run, [](const graph::Csr& csr, std::size_t) {
    Result want;
    auto& total = want.nodes["total"] = std::vector<std::int64_t>(csr.num_vertices(), 0);
    for (graph::vertex_t u = 0; u < csr.num_vertices(); ++u)
      for (const graph::vertex_t w : csr.neighbors(u)) total[w] += 3;
    return want;
  });
}

}  // namespace constructs_test
}  // namespace courier::dsl
