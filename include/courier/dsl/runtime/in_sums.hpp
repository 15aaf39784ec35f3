#pragma once
// InSums<T>: the sums of a split pull (courier/dsl/analysis.hpp, "Split pulls"), one per node. Over
// an outgoing edge cut (Layout::out) a node's in-edges lie on many ranks: each rank sums the ones it
// holds, for every node it holds, then mirrors' sums are added into their masters in one bulk
// reduction. Where masters hold their complete in-edges (Layout::in, both) each master sums its own
// and nothing travels. Either way a master's value is then the sum over all its in-edges.
#include <fmt/format.h>

#include <vector>

#include "courier/core/bitset.hpp"
#include "courier/core/error.hpp"
#include "courier/core/timer.hpp"
#include "courier/dsl/runtime/graph.hpp"

namespace courier::dsl::rt {

template <class T>
class InSums {
 public:
  explicit InSums(Graph& g) : g_(g), sums_(g.proxies(), T{}), pending_(g.proxies()) {
    if (!g.partition().has_in_edges())
      throw Error(fmt::format("dsl: a split pull reads each rank's in-edges, and the partition (layout {}) has none",
                              to_string(g.layout())));
  }
  InSums(const InSums&) = delete;
  InSums& operator=(const InSums&) = delete;

  // sums_[v] = sum_of(v, member) for every node v this rank sums (collective): the rank's threads
  // share the nodes, each node summed by one thread; then mirrors' sums go to their masters.
  template <class Fn>
  void compute(Fn&& sum_of) {
    const bool split = g_.layout() == Layout::out;
    const local masters = g_.masters();
    g_.for_chunks(split ? g_.proxies() : masters, vertex::Engine::kVertexChunk,
                  [&](std::size_t begin, std::size_t end, unsigned member) {
                    auto& body = sum_of;  // in registers across pending_'s atomic marks (graph.hpp)
                    T* sums = sums_.data();
                    for (std::size_t v = begin; v < end; ++v) {
                      const T sum = body(static_cast<local>(v), member);
                      sums[v] = sum;
                      // Chunks of kVertexChunk are whole 64-bit words of marks: no atomic
                      // read-modify-write (one a mirror was a tenth of pagerank's step).
                      if (v >= masters && sum != T{}) pending_.set_exclusive(v);
                    }
                  });
    if (!split || g_.ranks() == 1) return;
    Timer timer;
    g_.substrate().template reduce<Sum>(sums_, pending_);
    pending_.clear();
    g_.phases().reduction_seconds += timer.elapsed();
    ++g_.phases().reductions;
  }

  // A master's sum over all its in-edges, after compute().
  T operator[](local v) const { return sums_[v]; }

 private:
  Graph& g_;
  std::vector<T> sums_;  // by proxy: a mirror's is its rank's share until the reduction takes it
  Bitset pending_;       // mirrors with a share to send
};

}  // namespace courier::dsl::rt
