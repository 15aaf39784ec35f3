#pragma once
// Words of bitsets visited, counted by each thread into a slot its ThreadTeam gives it, so that a
// team (a rank's threads) knows what its scans cost: the vertex engine reports it per round, and
// tests check that a round scans in proportion to its work, not to the graph. One writer per slot:
// counting never contends.
#include <atomic>
#include <cstdint>

namespace courier {

struct alignas(64) ScanSlot {
  std::atomic<std::uint64_t> words{0};
};

// The calling thread's slot, or nullptr on a thread outside any team (nothing is counted).
inline thread_local ScanSlot* this_thread_scan_slot = nullptr;

inline void count_scanned_words(std::uint64_t words) {
  if (ScanSlot* slot = this_thread_scan_slot)
    slot->words.store(slot->words.load(std::memory_order_relaxed) + words, std::memory_order_relaxed);
}

}  // namespace courier
