// The runtime generated code targets, on partitions made in memory and ranks as threads talking
// through the loopback test channel and the lci channel: each construct against what it means on
// the whole graph. Mirrors are where it can go wrong, so every test runs on 1 to 4 ranks.
#include "courier/dsl/runtime.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>

#include "algo/algo_graphs.hpp"
#include "courier/dsl/runtime/partition.hpp"
#include "courier/graph/csr.hpp"
#include "courier/graph/reference/bfs.hpp"
#include "courier/graph/transform.hpp"
#include "courier/sync/exchange.hpp"
#include "courier/vertex/gather.hpp"
#include "support/ranks.hpp"

namespace courier::dsl::rt {
namespace runtime_test {

using test_support::Channel;

const graph::EdgeList& kron() {
  static const graph::EdgeList edges = test_support::generated(graph::Generator::kronecker, 9, false);
  return edges;
}

// body(g) on every rank of an outgoing edge cut of `edges` (with in-edges for Layout::in: an incoming
// one; for both: the out cut with its edges copied to their destinations). `own_in_edges`: the out
// cut keeps each rank's edges turned around too (split pulls).
void on_ranks(const graph::EdgeList& edges, int ranks, Layout layout, Channel channel,
              const std::function<void(Graph&)>& body, bool own_in_edges = false,
              Generation generation = Generation::optimised) {
  const auto policy = layout == Layout::in ? dist::Policy::iec : dist::Policy::oec;
  const auto parts = dist::partition_in_memory(edges, policy, ranks, layout == Layout::in || own_in_edges);
  test_support::on_every_rank(
      parts, 2,
      [&](vertex::Engine& e) {
        if (layout != Layout::both) {
          Graph g(e, layout, generation);
          body(g);
          return;
        }
        const dist::LocalGraph both = with_both_rows(e.graph(), sync::collective(e.channel()));
        vertex::Engine on_both(both, e.channel(), e.team());
        Graph g(on_both, layout);
        body(g);
      },
      channel);
}

template <class T>
std::vector<T> gathered(Graph& g, const std::vector<T>& values) {
  return vertex::gather_masters<T>(g.engine(), std::span<const T>(values));
}

struct Case {
  int ranks;
  Channel channel;
};
const std::vector<Case> kCases{{1, Channel::loopback}, {2, Channel::loopback}, {3, Channel::loopback},
                               {4, Channel::loopback}, {2, Channel::lci},      {3, Channel::lci_explicit}};

TEST(Runtime, BothRowsGiveEveryMasterItsOutAndInEdges) {
  const graph::Csr out = graph::build_csr(kron());
  const graph::Csr in = graph::transpose(out);
  for (const Case& c : kCases) {
    on_ranks(kron(), c.ranks, Layout::both, c.channel, [&](Graph& g) {
      for (local v = 0; v < g.masters(); ++v) {
        std::vector<node> outs, ins;
        for (local w : g.out_neighbors(v)) outs.push_back(g.id(w));
        for (local u : g.in_neighbors(v)) ins.push_back(g.id(u));
        std::sort(outs.begin(), outs.end());
        std::sort(ins.begin(), ins.end());
        const auto want_out = out.neighbors(g.id(v));
        const auto want_in = in.neighbors(g.id(v));
        ASSERT_EQ(outs, std::vector<node>(want_out.begin(), want_out.end())) << "node " << g.id(v);
        ASSERT_EQ(ins, std::vector<node>(want_in.begin(), want_in.end())) << "node " << g.id(v);
      }
      EXPECT_EQ(g.num_edges(), static_cast<std::int64_t>(out.num_edges()));
    });
  }
}

// Each node offers its id to its out-neighbours with Min, after masters were assigned values their
// mirrors do not hold (so a mirror's own slot cannot be trusted): every node ends with the
// smallest in-neighbour id below its start, and the multi-assignment marks exactly those lowered.
TEST(Runtime, AMinAtMirrorsReachesTheMasterAndMarksWhatItLowered) {
  const graph::Csr in = graph::transpose(graph::build_csr(kron()));
  std::vector<std::uint64_t> want(in.num_vertices());
  std::vector<std::uint8_t> lowered(in.num_vertices());
  for (node v = 0; v < in.num_vertices(); ++v) {
    want[v] = v + 100;
    for (node u : in.neighbors(v)) want[v] = std::min(want[v], u);
    lowered[v] = want[v] != v + 100;
  }
  for (const Case& c : kCases) {
    for (bool queued : {false, true}) {
      on_ranks(kron(), c.ranks, Layout::out, c.channel, [&](Graph& g) {
        NodeProperty<std::uint64_t> label(g);
        NodeFlags marked(g);
        g.for_nodes([&](local v, unsigned) { label.store(v, g.id(v) + 100); });
        label.wrote();
        const auto mark = [&](local n) { marked.store(n, true); };
        ReductionQueue<std::uint64_t> queue(g);
        label.prepare_reduce<Min>();
        g.for_nodes([&](local v, unsigned member) {
          for (edge e = g.out_begin(v); e < g.out_end(v); ++e) {
            if (queued) {
              queue.push(member, g.out_target(e), g.id(v));
            } else {
              label.reduce<Min>(g.out_target(e), g.id(v), mark);
            }
          }
        });
        if (queued) {
          queue.finish<Min>(label, mark);
        } else {
          label.finish_reduce<Min>(mark);
        }
        const auto got = gathered(g, label.values());
        std::vector<std::uint8_t> flags(g.masters());
        for (local v = 0; v < g.masters(); ++v) flags[v] = marked[v];
        const auto got_flags = gathered(g, flags);
        if (g.engine().rank() != 0) return;
        EXPECT_EQ(got, want) << c.ranks << " ranks, queued " << queued;
        EXPECT_EQ(got_flags, lowered) << c.ranks << " ranks, queued " << queued;
      });
    }
  }
}

// Sums at mirrors are kept apart from the mirror's copy: after counting in-degrees by += and a
// refresh, every node reads its out-neighbours' counts through mirrors.
TEST(Runtime, SumsThenRemoteReadsThroughRefreshedMirrors) {
  const graph::Csr out = graph::build_csr(kron());
  const graph::Csr in = graph::transpose(out);
  std::vector<std::int64_t> want(out.num_vertices(), 0);
  for (node v = 0; v < out.num_vertices(); ++v)
    for (node w : out.neighbors(v)) want[v] += static_cast<std::int64_t>(in.neighbors(w).size());
  for (const Case& c : kCases) {
    for (Fetch fetch : {Fetch::changed, Fetch::all}) {
      on_ranks(kron(), c.ranks, Layout::out, c.channel, [&](Graph& g) {
        NodeProperty<std::int64_t> degree(g);
        NodeProperty<std::int64_t> total(g);
        degree.track();
        degree.prepare_reduce<Sum>();
        g.for_nodes([&](local v, unsigned) {
          for (edge e = g.out_begin(v); e < g.out_end(v); ++e) degree.reduce<Sum>(g.out_target(e), 1);
        });
        degree.finish_reduce<Sum>();
        degree.refresh(fetch);
        g.for_nodes([&](local v, unsigned) {
          std::int64_t sum = 0;
          for (edge e = g.out_begin(v); e < g.out_end(v); ++e) sum += degree.load(g.out_target(e));
          total.store(v, sum);
        });
        const auto got = gathered(g, total.values());
        if (g.engine().rank() != 0) return;
        EXPECT_EQ(got, want) << c.ranks << " ranks";
      });
    }
  }
}

// move_from leaves the target as copy_from would, mirrors included, and the source, rewritten at its
// masters, refreshes its mirrors in full: they hold the target's old mirrors, behind its old
// masters, so a master rewritten with the value it had (node 8's 9) still goes to them.
TEST(Runtime, AMovedPropertyReadsAsACopiedOne) {
  const graph::Csr out = graph::build_csr(kron());
  // Each node's sum of f(w) over its out-neighbours w.
  auto sums = [&](auto f) {
    std::vector<std::int64_t> want(out.num_vertices(), 0);
    for (node v = 0; v < out.num_vertices(); ++v)
      for (node w : out.neighbors(v)) want[v] += f(w);
    return want;
  };
  const auto want_moved = sums([](node w) { return static_cast<std::int64_t>(3 * w); });
  const auto want_rewritten = sums([](node w) { return static_cast<std::int64_t>(w + 1); });
  for (const Case& c : kCases) {
    for (const auto& tracking : {std::pair{true, true}, {true, false}, {false, false}}) {
      const bool target_tracked = tracking.first, source_tracked = tracking.second;
      on_ranks(kron(), c.ranks, Layout::out, c.channel, [&](Graph& g) {
        NodeProperty<std::int64_t> target(g, 7), source(g), got(g);
        if (target_tracked) target.track();
        if (source_tracked) source.track();
        target.refresh(Fetch::changed);
        // Masters ahead of their mirrors when the source takes these values over.
        g.for_nodes([&](local v, unsigned) { target.store(v, 9); });
        target.wrote();
        g.for_nodes([&](local v, unsigned) { source.store(v, static_cast<std::int64_t>(3 * g.id(v))); });
        source.wrote();
        const auto pull = [&](NodeProperty<std::int64_t>& p) {
          p.refresh(Fetch::changed);
          g.for_nodes([&](local v, unsigned) {
            std::int64_t sum = 0;
            for (edge e = g.out_begin(v); e < g.out_end(v); ++e) sum += p.load(g.out_target(e));
            got.store(v, sum);
          });
          return gathered(g, got.values());
        };
        target.move_from(source);
        const auto moved = pull(target);
        g.for_nodes([&](local v, unsigned) { source.store(v, static_cast<std::int64_t>(g.id(v) + 1)); });
        source.wrote();
        const auto rewritten = pull(source);
        if (g.engine().rank() != 0) return;
        EXPECT_EQ(moved, want_moved) << c.ranks << " ranks, tracked " << target_tracked << source_tracked;
        EXPECT_EQ(rewritten, want_rewritten) << c.ranks << " ranks, tracked " << target_tracked << source_tracked;
      });
    }
  }
}

// ||= at mirrors, then the flags read through mirrors: a node is marked when an in-neighbour has an
// even id; then counts the marked out-neighbours.
TEST(Runtime, FlagsReduceAndRefresh) {
  const graph::Csr out = graph::build_csr(kron());
  const graph::Csr in = graph::transpose(out);
  std::vector<std::uint8_t> marked(out.num_vertices(), 0);
  for (node v = 0; v < out.num_vertices(); ++v)
    for (node u : in.neighbors(v)) marked[v] |= u % 2 == 0;
  std::vector<std::int64_t> want(out.num_vertices(), 0);
  for (node v = 0; v < out.num_vertices(); ++v)
    for (node w : out.neighbors(v)) want[v] += marked[w];
  for (const Case& c : kCases) {
    on_ranks(kron(), c.ranks, Layout::out, c.channel, [&](Graph& g) {
      NodeFlags flag(g);
      flag.track();
      NodeProperty<std::int64_t> count(g);
      g.for_nodes([&](local v, unsigned) {
        for (edge e = g.out_begin(v); e < g.out_end(v); ++e) flag.reduce<Or>(g.out_target(e), g.id(v) % 2 == 0);
      });
      flag.finish_reduce<Or>();
      flag.refresh(Fetch::changed);
      g.for_nodes([&](local v, unsigned) {
        std::int64_t n = 0;
        for (edge e = g.out_begin(v); e < g.out_end(v); ++e) n += flag.load(g.out_target(e)) ? 1 : 0;
        count.store(v, n);
      });
      const auto got = gathered(g, count.values());
      const std::uint64_t flagged = g.all_reduce<Sum>(std::uint64_t{flag.count()});
      if (g.engine().rank() != 0) return;
      EXPECT_EQ(got, want) << c.ranks << " ranks";
      EXPECT_EQ(flagged, static_cast<std::uint64_t>(std::count(marked.begin(), marked.end(), 1)));
    });
  }
}

// Shared scalars: every thread and rank's partials, combined with the scalar's value before.
TEST(Runtime, PartialsAgreeOnEveryRank) {
  const auto n = static_cast<std::int64_t>(graph::build_csr(kron()).num_vertices());
  for (const Case& c : kCases) {
    on_ranks(kron(), c.ranks, Layout::out, c.channel, [&](Graph& g) {
      Partial<std::int64_t, Sum> sum(g);
      Partial<std::int64_t, Min> smallest(g);
      Partial<double, Max> largest(g);
      Partial<std::int64_t, Product> product(g);
      g.for_nodes([&](local v, unsigned member) {
        const auto id = static_cast<std::int64_t>(g.id(v));
        sum.reduce(member, id);
        smallest.reduce(member, id - 7);
        largest.reduce(member, static_cast<double>(id) / 2);
        if (id < 5) product.reduce(member, id + 1);
      });
      EXPECT_EQ(sum.finish(-10), n * (n - 1) / 2 - 10);
      EXPECT_EQ(smallest.finish(0), -7);
      EXPECT_EQ(largest.finish(0), static_cast<double>(n - 1) / 2);
      EXPECT_EQ(product.finish(2), 2 * 120);
    });
  }
}

TEST(Runtime, BfsLevelsAreTheReferences) {
  const graph::Csr out = graph::build_csr(kron());
  const auto want = graph::reference::bfs(out, 3).level;
  for (const Case& c : kCases) {
    on_ranks(kron(), c.ranks, Layout::out, c.channel, [&](Graph& g) {
      BfsLevels bfs(g, 3);
      std::vector<std::uint64_t> level(g.masters(), graph::reference::kUnreached);
      for (std::int64_t d = 0; d <= bfs.deepest(); ++d)
        bfs.for_level(d, [&](local v, unsigned) { level[v] = static_cast<std::uint64_t>(d); });
      const auto got = gathered(g, level);
      if (g.engine().rank() != 0) return;
      EXPECT_EQ(got, want) << c.ranks << " ranks";
    });
  }
}

// A split pull's sums: over each rank's own in-edges and added into masters (out), or over the
// masters' complete in-edges (in, both); every master ends with the sum over all of its in-edges.
TEST(Runtime, InSumsAreSumsOverAllInEdges) {
  const graph::Csr in = graph::transpose(graph::build_csr(kron()));
  std::vector<std::int64_t> want(in.num_vertices(), 0);
  for (std::size_t v = 0; v < in.num_vertices(); ++v)
    for (const auto u : in.neighbors(v)) want[v] += static_cast<std::int64_t>(u) + 1;
  for (const Case& c : kCases) {
    for (Layout layout : {Layout::out, Layout::in, Layout::both}) {
      on_ranks(
          kron(), c.ranks, layout, c.channel,
          [&](Graph& g) {
            InSums<std::int64_t> sums(g);
            for (int round = 0; round < 2; ++round) {  // again: the second starts from the first's state
              sums.compute([&](local v, unsigned) {
                std::int64_t sum = 0;
                for (const local u : g.in_neighbors(v)) sum += static_cast<std::int64_t>(g.id(u)) + 1;
                return sum;
              });
              std::vector<std::int64_t> mine(g.masters());
              for (local m = 0; m < g.masters(); ++m) mine[m] = sums[m];
              const auto got = gathered(g, mine);
              if (g.engine().rank() != 0) continue;
              EXPECT_EQ(got, want) << c.ranks << " ranks, layout " << to_string(layout);
            }
          },
          true);
    }
  }
}

// The graph's weights as an edge property: read where the partition keeps them for int and
// unsigned (one may alias the other), copied for another type; a write after own() changes the
// property only, never the graph's weights.
TEST(Runtime, WeightsAreViewedUntilTheProgramWritesThem) {
  const graph::EdgeList edges = test_support::generated(graph::Generator::kronecker, 8, true);
  for (const Layout layout : {Layout::out, Layout::in}) {
    on_ranks(edges, 2, layout, Channel::loopback, [&](Graph& g) {
      const auto& stored = std::get<std::vector<std::uint32_t>>(g.partition().out().weights);
      const auto& stored_in = std::get<std::vector<std::uint32_t>>(g.partition().in().weights);
      auto viewed = EdgeProperty<std::int32_t>::weights(g);
      const auto copied = EdgeProperty<double>::weights(g);
      for (edge e = 0; e < stored.size(); ++e) {
        ASSERT_EQ(viewed.out(e), static_cast<std::int32_t>(stored[e])) << e;
        ASSERT_EQ(copied.out(e), static_cast<double>(stored[e])) << e;
      }
      for (edge e = 0; e < stored_in.size(); ++e) {
        ASSERT_EQ(viewed.in(e), static_cast<std::int32_t>(stored_in[e])) << e;
      }
      if (stored.empty()) return;
      const std::uint32_t first = stored[0];
      viewed.own();
      viewed.set_out(0, -1);
      EXPECT_EQ(viewed.out(0), -1);
      EXPECT_EQ(stored[0], first);
      if (stored.size() > 1) {
        EXPECT_EQ(viewed.out(1), static_cast<std::int32_t>(stored[1]));
      }
    }, /*own_in_edges=*/true);
  }
}

TEST(Runtime, AnOutCutWithoutInEdgesHasNoInSums) {
  on_ranks(kron(), 2, Layout::out, Channel::loopback, [&](Graph& g) { EXPECT_THROW(InSums<double>{g}, Error); });
}

TEST(Runtime, DegreesAndAdjacencyOfMirrors) {
  const graph::EdgeList edges = graph::to_edge_list(graph::simple_undirected(graph::build_csr(kron())));
  const graph::Csr out = graph::build_csr(edges);
  for (const Case& c : kCases) {
    for (Layout layout : {Layout::out, Layout::in, Layout::both}) {
      on_ranks(edges, c.ranks, layout, c.channel, [&](Graph& g) {
        g.prepare_out_degrees();
        g.prepare_in_degrees();
        if (layout != Layout::in) g.prepare_adjacency();
        for (local v = 0; v < g.proxies(); ++v) {
          ASSERT_EQ(g.out_degree(v), static_cast<std::int64_t>(out.neighbors(g.id(v)).size())) << g.id(v);
          ASSERT_EQ(g.in_degree(v), static_cast<std::int64_t>(out.neighbors(g.id(v)).size())) << g.id(v);
        }
        if (layout == Layout::in) return;
        // Every edge between two proxies of this rank is known, whichever end is a master.
        for (local u = 0; u < g.proxies(); ++u) {
          const auto row = out.neighbors(g.id(u));
          for (local w = 0; w < g.proxies(); w += 7)
            ASSERT_EQ(g.has_edge(u, w), std::binary_search(row.begin(), row.end(), g.id(w)))
                << g.id(u) << " " << g.id(w);
        }
      });
    }
  }
}

// The naive generation reads another rank's node by a one-sided get from its master, never from the
// mirror (which here is never refreshed), and its loops count every get and edge search by kind.
TEST(Runtime, NaiveGetsReadTheOwnersMasterAndAreCounted) {
  const graph::Csr out = graph::build_csr(kron());
  for (const Case& c : kCases) {
    on_ranks(
        kron(), c.ranks, Layout::out, c.channel,
        [&](Graph& g) {
          NodeProperty<std::int64_t> value(g, -1);
          NodeProperty<std::int64_t> total(g);
          std::uint64_t to_masters = 0, to_mirrors = 0;
          for (local v = 0; v < g.masters(); ++v)
            for (local w : g.out_neighbors(v)) ++(g.is_master(w) ? to_masters : to_mirrors);
          for (std::int64_t scale : {3, 5}) {  // masters rewritten between epochs: the second reads the new
            for (local v = 0; v < g.masters(); ++v) value.store(v, scale * static_cast<std::int64_t>(g.id(v)) + 1);
            value.begin_gets();
            g.for_nodes([&](local v, unsigned) {
              std::int64_t sum = 0;
              for (local w : g.out_neighbors(v)) {
                sum += value.get(w);
                EXPECT_EQ(g.out_target(g.find_out_edge(v, w)), w);
              }
              total.store(v, sum);
            });
            value.end_gets();
            const auto got = gathered(g, total.values());
            const Phases p = g.profile();
            const std::uint64_t epochs = scale == 3 ? 1 : 2;
            EXPECT_EQ(p.remote_gets, epochs * to_mirrors) << c.ranks << " ranks";
            EXPECT_EQ(p.local_gets, epochs * to_masters) << c.ranks << " ranks";
            EXPECT_EQ(p.edge_searches, epochs * (to_masters + to_mirrors));
            EXPECT_EQ(c.ranks == 1 || to_mirrors == 0, p.remote_gets == 0);
            if (g.engine().rank() != 0) continue;
            for (node v = 0; v < out.num_vertices(); ++v) {
              std::int64_t want = 0;
              for (node w : out.neighbors(v)) want += scale * static_cast<std::int64_t>(w) + 1;
              ASSERT_EQ(got[v], want) << c.ranks << " ranks, node " << v;
            }
          }
        },
        false, Generation::naive);
  }
}

// The naive generation's reductions: every update a one-sided accumulate into its node's owner,
// combined into the masters when the statement finishes (a Sum of in-degrees; a Min of
// in-neighbours' ids, 64-bit unsigned, that marks what it lowered). Each statement runs twice, as
// in a loop: its second run reuses the first's slots and window and starts from the identity.
TEST(Runtime, NaiveAccumulatesReachTheOwnersAtTheStatementsEnd) {
  const graph::Csr out = graph::build_csr(kron());
  const graph::Csr in = graph::transpose(out);
  for (const Case& c : kCases) {
    on_ranks(
        kron(), c.ranks, Layout::out, c.channel,
        [&](Graph& g) {
          for (int run = 0; run < 2; ++run) {
            NodeProperty<std::int64_t> degree(g, 0);
            NodeProperty<node> label(g);
            NodeFlags lowered(g);
            lowered.fill(false);
            for (local v = 0; v < g.proxies(); ++v) label[v] = g.id(v);
            Accumulation<std::int64_t, Sum> sum(g, "test.sum");
            Accumulation<node, Min> least(g, "test.least");
            g.for_nodes([&](local v, unsigned member) {
              for (local w : g.out_neighbors(v)) {
                sum.push(member, w, 1);
                least.push(member, w, g.id(v));
              }
            });
            // Nothing lands before its statement finishes.
            for (local v = 0; v < g.masters(); ++v) EXPECT_EQ(degree[v], 0);
            sum.finish<Sum>(degree);
            least.finish<Min>(label, [&](local m) { lowered.store(m, true); });
            std::uint64_t edges = 0;
            for (local v = 0; v < g.masters(); ++v) edges += g.out_neighbors(v).size();
            EXPECT_EQ(g.profile().accumulates, 2 * edges * static_cast<std::uint64_t>(run + 1));
            std::vector<std::int64_t> marks(g.masters());
            for (local v = 0; v < g.masters(); ++v) marks[v] = lowered.get(v) ? 1 : 0;
            const auto degrees = gathered(g, degree.values());
            const auto labels = gathered(g, label.values());
            const auto marked = gathered(g, marks);
            if (g.engine().rank() != 0) continue;
            // Counted, not asserted: rank 0 must go on to the second run's collectives.
            std::size_t wrong = 0;
            node first_wrong = 0;
            for (node v = 0; v < out.num_vertices(); ++v) {
              const auto from = in.neighbors(v);
              const node least_id = std::min<node>(v, from.empty() ? v : *std::min_element(from.begin(), from.end()));
              if (degrees[v] == static_cast<std::int64_t>(from.size()) && labels[v] == least_id &&
                  marked[v] == (least_id < v ? 1 : 0))
                continue;
              if (wrong++ == 0) first_wrong = v;
            }
            EXPECT_EQ(wrong, 0u) << c.ranks << " ranks, run " << run << ", first at node " << first_wrong;
          }
        },
        false, Generation::naive);
  }
}

}  // namespace runtime_test
}  // namespace courier::dsl::rt
