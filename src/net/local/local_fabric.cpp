#include <string>

#include "courier/core/error.hpp"
#include "local_device.hpp"
#include "local_state.hpp"

namespace courier::net {

LocalFabric::State::State(rank_t n, LocalOptions opts)
    : ranks(n), options(opts), barrier(n), taken(static_cast<std::size_t>(n)) {
  const auto pairs = static_cast<std::size_t>(n) * static_cast<std::size_t>(n);
  frames_.reserve(pairs);
  notices_.reserve(pairs);
  for (std::size_t i = 0; i < pairs; ++i) {
    frames_.push_back(std::make_unique<FrameRing>(options.ring_frames, options.frame_bytes));
    // Notices are tiny; give them room for several frames' worth of puts.
    notices_.push_back(std::make_unique<SpscRing<std::uint64_t>>(4 * options.ring_frames));
  }
}

LocalFabric::LocalFabric(rank_t ranks, LocalOptions options) {
  if (ranks < 1) throw Error("LocalFabric: need at least one rank, got " + std::to_string(ranks));
  if (options.frame_bytes < 256) {
    throw Error("LocalFabric: frame_bytes " + std::to_string(options.frame_bytes) + " is too small; use at least 256");
  }
  if (options.ring_frames == 0) throw Error("LocalFabric: ring_frames must be at least 1");
  state_ = std::make_shared<State>(ranks, options);
}

LocalFabric::~LocalFabric() = default;

rank_t LocalFabric::ranks() const { return state_->ranks; }
const LocalOptions& LocalFabric::options() const { return state_->options; }

std::unique_ptr<Device> LocalFabric::device(rank_t rank) {
  if (rank < 0 || rank >= state_->ranks) {
    throw Error("LocalFabric::device: rank " + std::to_string(rank) + " is outside [0, " +
                std::to_string(state_->ranks) + ")");
  }
  if (state_->taken[static_cast<std::size_t>(rank)].exchange(true)) {
    throw Error("LocalFabric::device: rank " + std::to_string(rank) + "'s device was already taken; take it once");
  }
  return std::make_unique<LocalDevice>(state_, rank);
}

}  // namespace courier::net
