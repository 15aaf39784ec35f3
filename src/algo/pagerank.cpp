// PageRank by pull, or by push on request (each vertex scatters its share into the sums of its
// out-neighbours, atomically; the sums then go as the pulled ones do). Three labels: out-degree (summed from every proxy's edges into the master),
// each master's share rank/out-degree (read at edge sources), and the sum each vertex pulls over
// its in-edges (written at destinations, summed into the master). The dangling mass is a global
// sum per step.
//
// Each step makes one pass over the masters that computes the new rank, the share the next step
// reads and the next dangling mass together. When no destination can be a mirror (one rank, or
// an incoming edge cut) that pass is the pull itself, reading one step's shares and writing the
// next step's beside them; otherwise it follows the reduce of the pulled sums.
#include "courier/algo/pagerank.hpp"

#include <cmath>
#include <span>

#include "courier/core/error.hpp"
#include "courier/sync/reduction.hpp"

namespace courier::algo {

using namespace courier::vertex;

// Shares are the values read at random in the pull and broadcast to mirrors, so float shares
// move half the bytes; sums, ranks and the change stay double. Rounding a share to float moves
// it by at most 2^-24 of itself; one step's shares add up to at most the total rank, 1, so a
// step's rounding moves the ranks by at most 2^-24 d (L1), and every later step shrinks that by
// d: the ranks stay within drift = 2^-24 d / (1 - d) of the double ones (3.4e-7 at d = 0.85).
// Floats are used when that drift is within half the 1e-6 (L1) the results are held to (d up to
// 0.89) and it cannot move the stop: a fixed step count (tolerance 0), or a tolerance that the
// changes, each off by at most 2 drift while the exact ones shrink by d a step, cross at most one
// step away from where the doubles' would (about 4e-6 and up at d = 0.85). Below that, rounding
// noise could hold the change above the tolerance for many steps.
bool pagerank_float_shares(const PagerankOptions& options) {
  const double d = options.damping;
  if (d >= 1 || options.double_shares) return false;
  const double drift = 0x1p-24 * d / (1 - d);
  return drift <= 5e-7 && (options.tolerance <= 0 || 2 * drift * d / (1 - d) < options.tolerance);
}

namespace {

// What one step adds up over the masters.
struct StepSums {
  double change = 0;    // L1 between the new ranks and the last
  double dangling = 0;  // the new rank of vertices without out-edges
  StepSums& operator+=(const StepSums& other) {
    change += other.change;
    dangling += other.dangling;
    return *this;
  }
};

// The sum of the shares of `sources`, in double. (Two or four running sums, or prefetching the
// shares a few edges ahead, measured no faster: the loop waits on memory, not on its adds.)
template <class Share>
double pull_sum(const local_t* sources, const local_t* end, const Share* share) {
  double sum = 0;
  for (; sources != end; ++sources) sum += share[*sources];
  return sum;
}

// One master's step: its new rank, written with its share for the next step (unless no step reads
// it), and what the step sums. Plain pointers, copied into each pass by value, so the pass keeps
// them in registers; no thread reads the shares while a pass writes them, so plain stores do.
template <class Share>
struct Update {
  double* rank;
  const double* inverse;  // 1 / the out-degree, 0 without out-edges
  Field<Share, sync::Sum>* share;
  bool write_share;

  StepSums operator()(local_t v, double next) const {
    const StepSums sums{std::abs(next - rank[v]), inverse[v] == 0 ? next : 0.0};
    rank[v] = next;
    if (write_share && inverse[v] != 0) {
      (*share)[v] = static_cast<Share>(next * inverse[v]);
      share->mark(v);
    }
    return sums;
  }
};

template <class Share>
PagerankResult pull_pagerank(Engine& engine, const PagerankOptions& options) {
  using ShareField = Field<Share, sync::Sum>;
  const dist::LocalGraph& g = engine.graph();
  PagerankResult result;
  const double n = static_cast<double>(g.global_vertices());
  const double d = options.damping;

  // Each master's 1 / out-degree (0 without out-edges): a step multiplies, where a quotient per
  // master and step measured 5% slower; the share is rounded to Share either way. The degrees
  // themselves go once it is made.
  std::vector<double> inverse(g.masters());
  {
    Field<std::uint64_t, sync::Sum> degree(g, 0, {At::source, At::master});
    engine.for_each_vertex(g.proxies(), [&](local_t v) {
      if (g.out().degree(v) != 0) degree.set(v, g.out().degree(v));
    });
    engine.sync(degree);
    engine.for_each_vertex(
        g.masters(), [&](local_t v) { inverse[v] = degree[v] == 0 ? 0.0 : 1.0 / static_cast<double>(degree[v]); });
  }
  // Two share arrays: a fused pass reads this step's shares while it writes the next step's.
  ShareField shares[2] = {ShareField(g, Share{0}, {At::master, At::source}),
                          ShareField(g, Share{0}, {At::master, At::source})};
  Field<double, sync::Sum> pulled(g, 0.0, {At::destination, At::master});
  const bool push = options.direction == Direction::push;
  const bool fused = !push && !engine.plan_for(pulled.access()).reduce;
  result.rank.assign(g.masters(), 1.0 / n);

  const auto update = [&](ShareField& share, bool write_share) {
    return Update<Share>{result.rank.data(), inverse.data(), &share, write_share};
  };
  const auto send_shares = [&](ShareField& share) {
    engine.sync(share);
    share.updated().clear();
  };

  int current = 0;  // which of `shares` this step reads
  const auto first = update(shares[current], true);
  double dangling = engine.sum_all(
      engine.sum_over<StepSums>(g.masters(), [first](local_t v) { return first(v, first.rank[v]); }).dangling);
  send_shares(shares[current]);

  bool more = options.max_iterations > 0;
  while (more && engine.next_round(1)) {
    const double base = (1.0 - d) / n + d * dangling / n;
    const bool last = result.iterations + 1 >= options.max_iterations;  // no step reads its shares
    const Share* contribution = shares[current].values().data();
    const int next = fused ? 1 - current : current;
    ShareField& next_share = shares[next];
    StepSums local;
    const auto step = update(next_share, !last);
    if (fused) {
      // Every destination is a master: pull and update in one pass over the in-edges.
      engine.note_pull();
      g.in().offsets.visit([&](auto offsets) {
        local = engine.sum_over<StepSums>(g.masters(), [step, base, d, contribution, rows = offsets.data(),
                                                        sources = g.in().targets.data()](local_t v) {
          return step(v, base + d * pull_sum(sources + rows[v], sources + rows[v + 1], contribution));
        });
      });
    } else {
      if (push) {
        engine.for_each_edge([&](local_t u, local_t v, edge_t) {
          if (contribution[u] != 0) pulled.combine(v, contribution[u]);
        });
      } else {
        engine.pull([&](local_t v, std::span<const local_t> sources, edge_t) {
          const double sum = pull_sum(sources.data(), sources.data() + sources.size(), contribution);
          if (v < g.masters())
            pulled[v] = sum;
          else if (sum != 0)
            pulled.set_exclusive(v, sum);  // only mirrors' sums travel
        });
      }
      engine.sync(pulled);
      pulled.updated().clear();
      local = engine.sum_over<StepSums>(g.masters(), [&pulled, step, base, d](local_t v) {
        const double sum = pulled[v];
        pulled[v] = 0;  // the next pull writes only masters with in-edges here
        return step(v, base + d * sum);
      });
    }
    if (!last) send_shares(next_share);
    current = next;
    const double change = engine.sum_all(local.change);
    dangling = engine.sum_all(local.dangling);
    ++result.iterations;
    result.last_change = change;
    result.converged = change < options.tolerance;
    more = !result.converged && !last;
  }
  return result;
}

}  // namespace

PagerankResult pagerank(Engine& engine, const PagerankOptions& options) {
  const dist::LocalGraph& g = engine.graph();
  if (!g.has_in_edges()) throw Error("pagerank: pull needs the graph partitioned with in-edges");
  if (g.global_vertices() == 0) {
    PagerankResult result;
    result.converged = true;
    return result;
  }
  return pagerank_float_shares(options) ? pull_pagerank<float>(engine, options)
                                        : pull_pagerank<double>(engine, options);
}

}  // namespace courier::algo
