#pragma once
// What the naive generation's accesses cost, the functions paper 004 profiles in StarPlat's
// backend (section III, Fig. 3): window gets of a rank's own nodes, one-sided gets of other ranks',
// get_edge's searches of a row and the one-sided accumulates of reductions. Each thread of a rank
// counts into its own slot, which the rank's loops hand it; one call in kSampled is timed and
// charged for all of them, less the clock's own cost, so that the clock adds little to what it
// measures. Threads outside a loop count nothing.
#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>

namespace courier::dsl::rt {

enum class Access : std::uint8_t { local_get, remote_get, edge_search, accumulate };
inline constexpr std::size_t kAccessKinds = 4;
inline constexpr std::uint64_t kSampled = 16;

struct alignas(64) AccessSlot {
  std::array<std::uint64_t, kAccessKinds> calls{};
  std::array<std::uint64_t, kAccessKinds> nanoseconds{};  // estimated from the sampled calls
};

inline thread_local AccessSlot* this_thread_accesses = nullptr;

// What reading the clock twice costs, taken off each timed call (it is more than a window get).
std::uint64_t clock_overhead_ns();

// fn(), counted as an access of `kind` (and timed, if it is a sampled one).
template <class Fn>
inline auto profiled(Access kind, Fn&& fn) {
  AccessSlot* slot = this_thread_accesses;
  const auto k = static_cast<std::size_t>(kind);
  if (slot == nullptr || slot->calls[k]++ % kSampled != 0) return fn();
  const auto start = std::chrono::steady_clock::now();
  auto result = fn();
  const auto spent =
      static_cast<std::uint64_t>(std::chrono::nanoseconds(std::chrono::steady_clock::now() - start).count());
  static const std::uint64_t overhead = clock_overhead_ns();
  slot->nanoseconds[k] += kSampled * (spent > overhead ? spent - overhead : 0);
  return result;
}

}  // namespace courier::dsl::rt
