#pragma once
// Collective: how dist/ talks to the other ranks while it builds a partition, without depending on
// the layers above it. The caller injects an all-to-all exchange (the CLI passes sync::exchange_all
// over the run's Channel); the small collectives dist/ needs are built on it.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "courier/dist/partition_plan.hpp"

namespace courier::dist {

using Bytes = std::vector<std::byte>;

struct Collective {
  rank_t rank = 0;
  rank_t ranks = 1;
  // outgoing[r] goes to rank r; returns what each rank sent here, indexed by source. Every rank
  // calls it the same number of times, in the same order.
  std::function<std::vector<Bytes>(std::vector<Bytes>)> exchange;
  // Frees the buffers the exchanges left idle for reuse (none: nothing to free).
  std::function<void()> release_buffers = {};

  // release_buffers(), if there is one: after a shuffle, so that its buffers are not alive beside
  // the rows built from what it delivered.
  void release() const {
    if (release_buffers) release_buffers();
  }
  // Every rank's `mine`, indexed by rank.
  std::vector<Bytes> all_gather(const Bytes& mine) const;
  std::uint64_t sum(std::uint64_t value) const;
  // The sum of the values of ranks 0..rank-1 (an exclusive scan).
  std::uint64_t exclusive_sum(std::uint64_t value) const;
  std::uint64_t max(std::uint64_t value) const;
  double max(double value) const;
  // The first non-empty message in rank order, or empty when every rank passed an empty one:
  // how ranks agree that one of them failed.
  std::string first_error(const std::string& mine) const;
};

// A collective for one rank alone (no exchange needed).
Collective solo_collective();

}  // namespace courier::dist
