#pragma once
// PacketPool: a fixed number of fixed-size, cache-line-aligned byte blocks ("packets"), allocated
// once. Memory is bounded by construction: when every packet is in use, try_acquire answers null
// (a soft failure the caller retries), never blocks and never allocates. Released packets are
// handed out again before any never used, so the pages touched follow the most packets in use at
// once (high_water()), not the pool's size.
//
// Locality: each thread keeps a small cache of packets. A thread releases into its own cache
// first and acquires from it first, so a packet tends to stay in the core that last touched it;
// the cache spills half of itself to the shared MpmcQueue when full and refills a batch from it
// when empty. A thread's cache is returned to the pool when the thread exits. Pools too small
// to share out (fewer than 64 packets) do not cache, so no packet sits idle in another thread.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>

namespace courier {

class PacketPool {
 public:
  // `count` packets of `packet_bytes` bytes each (rounded up to a multiple of 64).
  // `cache_capacity`: packets one thread may hold; -1 chooses count/16 capped at 64.
  PacketPool(std::size_t count, std::size_t packet_bytes, std::ptrdiff_t cache_capacity = -1);
  ~PacketPool();
  PacketPool(const PacketPool&) = delete;
  PacketPool& operator=(const PacketPool&) = delete;

  // A free packet, or nullptr when none is free right now.
  std::byte* try_acquire();
  // Gives back a packet this pool handed out (from any thread).
  void release(std::byte* packet);

  std::size_t count() const;
  std::size_t packet_bytes() const;
  std::size_t cache_capacity() const;
  // Packets outside the shared queue: in use, or waiting in a thread's cache. Counted per
  // refill / spill rather than per packet, so the fast path touches no shared counter; exact
  // when caching is off or every thread's cache is empty.
  std::size_t in_use() const;
  std::size_t high_water() const;   // the largest in_use() seen
  bool owns(const std::byte* packet) const;

  struct Shared;  // storage and the shared free queue; outlives the pool while caches flush

 private:
  std::shared_ptr<Shared> shared_;
};

}  // namespace courier
