#include <algorithm>
#include <bit>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "courier/core/error.hpp"
#include "local_device.hpp"
#include "local_state.hpp"

namespace courier::net {

LocalOptions LocalOptions::chaos(std::uint64_t seed) {
  LocalOptions options;
  options.pool_frames = 2;
  options.inbox_cells = 4;
  options.faults.enabled = true;
  options.faults.seed = seed;
  options.faults.retry_probability = 0.2;
  options.faults.hold_probability = 0.7;
  options.faults.max_held = 16;
  return options;
}

std::optional<std::uint64_t> LocalOptions::chaos_from_environment() {
  const char* text = std::getenv("COURIER_CHAOS");
  if (text == nullptr || *text == '\0') return std::nullopt;
  const std::string_view view(text);
  std::uint64_t seed = 0;
  const auto [end, error] = std::from_chars(view.data(), view.data() + view.size(), seed);
  if (error != std::errc() || end != view.data() + view.size()) {
    throw InputError("COURIER_CHAOS='" + std::string(view) +
                     "': write the seed of the local transport's chaos mode as a number, e.g. COURIER_CHAOS=42");
  }
  return seed;
}

std::uint64_t LocalOptions::estimate_bytes(std::int64_t ranks, const LocalOptions& options) {
  const std::uint64_t inbox = std::bit_ceil(std::max<std::size_t>(options.inbox_cells, 1)) * sizeof(Inbox::Cell);
  const std::uint64_t frame = (options.frame_bytes + cache_line_bytes - 1) / cache_line_bytes * cache_line_bytes;
  const std::uint64_t pool = options.pool_frames * (frame + sizeof(std::uint32_t));
  const std::uint64_t device = sizeof(LocalDevice) + 4 * cache_line_bytes;
  return static_cast<std::uint64_t>(ranks) * (inbox + pool + device + 3 * cache_line_bytes);
}

LocalFabric::State::State(rank_t n, LocalOptions opts)
    : ranks(n), options(opts), barrier(n), taken(static_cast<std::size_t>(n)) {
  inboxes.reserve(static_cast<std::size_t>(n));
  pools.reserve(static_cast<std::size_t>(n));
  for (rank_t r = 0; r < n; ++r) {
    inboxes.push_back(std::make_unique<Inbox>(options.inbox_cells));
    pools.push_back(std::make_unique<FramePool>(options.pool_frames, options.frame_bytes));
  }
}

LocalFabric::LocalFabric(rank_t ranks, LocalOptions options) {
  if (ranks < 1) throw Error("LocalFabric: need at least one rank, got " + std::to_string(ranks));
  if (options.frame_bytes < 256) {
    throw Error("LocalFabric: frame_bytes " + std::to_string(options.frame_bytes) + " is too small; use at least 256");
  }
  if (options.pool_frames == 0 || options.pool_frames > (std::size_t{1} << 30)) {
    throw Error("LocalFabric: pool_frames must be from 1 to 2^30, got " + std::to_string(options.pool_frames));
  }
  if (options.inbox_cells == 0) throw Error("LocalFabric: inbox_cells must be at least 1");
  if (!options.faults.enabled) {
    if (const std::optional<std::uint64_t> seed = LocalOptions::chaos_from_environment()) {
      const std::size_t frame_bytes = options.frame_bytes;
      options = LocalOptions::chaos(*seed);
      options.frame_bytes = frame_bytes;
      std::fprintf(stderr,
                   "courier: the local transport runs in chaos mode, seed %llu (COURIER_CHAOS=%llu reproduces it)\n",
                   static_cast<unsigned long long>(*seed), static_cast<unsigned long long>(*seed));
    }
  }
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
