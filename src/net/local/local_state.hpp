#pragma once
// What the ranks of one LocalFabric share: the rings between every ordered pair and the barrier.
#include <atomic>
#include <barrier>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "courier/core/spsc_ring.hpp"
#include "courier/net/local.hpp"
#include "frame_ring.hpp"

namespace courier::net {

struct LocalFabric::State {
  State(rank_t ranks, LocalOptions opts);

  FrameRing& frames(rank_t from, rank_t to) { return *frames_[index(from, to)]; }
  SpscRing<std::uint64_t>& notices(rank_t from, rank_t to) { return *notices_[index(from, to)]; }
  std::size_t index(rank_t from, rank_t to) const {
    return static_cast<std::size_t>(from) * static_cast<std::size_t>(ranks) + static_cast<std::size_t>(to);
  }

  const rank_t ranks;
  const LocalOptions options;
  std::barrier<> barrier;
  std::vector<std::unique_ptr<FrameRing>> frames_;
  std::vector<std::unique_ptr<SpscRing<std::uint64_t>>> notices_;
  std::vector<std::atomic<bool>> taken;
};

}  // namespace courier::net
