#pragma once
// What a part of the runtime counts as it progresses, for Runtime::stats(), which adds up the
// parts' counters. Each part counts in its own Counters, on lines of their own, so a count is
// an offset from the part rather than a pointer away, and posters reading the part's other
// fields do not lose their lines to it. Each counter has one writer at a time (the progress
// lock's holder; at destruction, the destroying thread) and is read by stats() from any thread,
// so a count is a relaxed load and store, not a read-modify-write.
#include <atomic>
#include <cstdint>

#include "courier/core/mpmc_queue.hpp"  // cache_line_bytes

namespace courier::comm {

struct alignas(cache_line_bytes) Counters {
  std::atomic<std::uint64_t> messages_received{0}, bytes_received{0}, packets_sent{0}, packets_received{0};
  std::atomic<std::uint64_t> frames_sent{0}, frames_received{0}, frame_bytes_sent{0}, device_retries{0};
  std::atomic<std::uint64_t> messages_sent{0}, eager_sent{0}, rendezvous_sent{0}, bytes_sent{0}, puts{0}, gets{0};
  std::atomic<std::uint64_t> discarded{0}, dropped{0}, freed_undelivered{0};
};

inline void bump(std::atomic<std::uint64_t>& counter, std::uint64_t by = 1) {
  counter.store(counter.load(std::memory_order_relaxed) + by, std::memory_order_relaxed);  // single writer
}

}  // namespace courier::comm
