#pragma once
// What the ranks of one LocalFabric share: each rank's inbox and frame pool, and the barrier.
// Nothing here is per pair of ranks: a fabric of N ranks holds N inboxes and N pools.
#include <atomic>
#include <barrier>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "courier/net/local.hpp"
#include "inbox.hpp"

namespace courier::net {

struct LocalFabric::State {
  State(rank_t ranks, LocalOptions opts);

  Inbox& inbox(rank_t rank) { return *inboxes[static_cast<std::size_t>(rank)]; }
  FramePool& pool(rank_t rank) { return *pools[static_cast<std::size_t>(rank)]; }

  const rank_t ranks;
  const LocalOptions options;
  std::barrier<> barrier;
  std::vector<std::unique_ptr<Inbox>> inboxes;
  std::vector<std::unique_ptr<FramePool>> pools;
  std::vector<std::atomic<bool>> taken;
};

}  // namespace courier::net
