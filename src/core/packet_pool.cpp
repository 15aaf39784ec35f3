#include "courier/core/packet_pool.hpp"

#include <algorithm>
#include <vector>

#include "courier/core/error.hpp"
#include "courier/core/mpmc_queue.hpp"

namespace courier {

struct PacketPool::Shared {
  Shared(std::size_t n, std::size_t bytes, std::size_t cache)
      : count(n), packet_bytes(bytes), cache_capacity(cache), free(n),
        arena(static_cast<std::byte*>(::operator new(n * bytes, std::align_val_t{cache_line_bytes}))) {}
  ~Shared() { ::operator delete(arena, std::align_val_t{cache_line_bytes}); }

  void note_acquired(std::size_t n) {
    const std::size_t now = in_use.fetch_add(n, std::memory_order_relaxed) + n;
    std::size_t high = high_water.load(std::memory_order_relaxed);
    while (now > high && !high_water.compare_exchange_weak(high, now, std::memory_order_relaxed)) {
    }
  }

  const std::size_t count;
  const std::size_t packet_bytes;
  const std::size_t cache_capacity;
  const std::uint64_t uid = next_uid.fetch_add(1, std::memory_order_relaxed);
  MpmcQueue<std::byte*> free;
  std::byte* const arena;
  alignas(cache_line_bytes) std::atomic<std::size_t> carved{0};  // packets ever handed out
  alignas(cache_line_bytes) std::atomic<std::size_t> in_use{0};
  std::atomic<std::size_t> high_water{0};

  static inline std::atomic<std::uint64_t> next_uid{1};
};

namespace {

// One thread's cache for one pool. The weak pointer lets a thread that outlives the pool forget
// the cache, and lets a pool that outlives the thread get its packets back.
struct ThreadCache {
  std::weak_ptr<PacketPool::Shared> pool;
  std::uint64_t uid = 0;
  std::vector<std::byte*> packets;
};

// A released packet, or else one never handed out: the arena is touched only as far as the
// most packets in use at once, not as far as the pool's size (a queue cycles through all it holds).
bool take(PacketPool::Shared& pool, std::byte*& packet) {
  if (pool.free.try_pop(packet)) return true;
  std::size_t next = pool.carved.load(std::memory_order_relaxed);
  while (next < pool.count && !pool.carved.compare_exchange_weak(next, next + 1, std::memory_order_relaxed)) {
  }
  if (next >= pool.count) return false;
  packet = pool.arena + next * pool.packet_bytes;
  return true;
}

void give_back(PacketPool::Shared& pool, std::byte* const* packets, std::size_t n) {
  if (n > 0) pool.in_use.fetch_sub(n, std::memory_order_relaxed);
  for (std::size_t i = 0; i < n; ++i) {
    // The shared queue holds every packet at once, so a push cannot fail; a failure is a bug.
    if (!pool.free.try_push(packets[i])) throw Error("PacketPool: shared queue overflow (a packet was released twice)");
  }
}

struct ThreadCaches {
  std::vector<ThreadCache> caches;
  ~ThreadCaches() {
    for (auto& cache : caches) {
      if (auto pool = cache.pool.lock()) give_back(*pool, cache.packets.data(), cache.packets.size());
    }
  }
  ThreadCache& find(const std::shared_ptr<PacketPool::Shared>& pool) {
    for (auto& cache : caches) {
      if (cache.uid == pool->uid) return cache;
    }
    // Forget caches of pools that are gone before adding one.
    std::erase_if(caches, [](const ThreadCache& c) { return c.pool.expired(); });
    caches.push_back(ThreadCache{pool, pool->uid, {}});
    caches.back().packets.reserve(pool->cache_capacity);
    return caches.back();
  }
};

thread_local ThreadCaches thread_caches;

}  // namespace

PacketPool::PacketPool(std::size_t count, std::size_t packet_bytes, std::ptrdiff_t cache_capacity) {
  if (count == 0 || packet_bytes == 0) {
    throw Error("PacketPool: count and packet_bytes must be positive; configure at least one packet of one byte");
  }
  const std::size_t bytes = (packet_bytes + cache_line_bytes - 1) / cache_line_bytes * cache_line_bytes;
  std::size_t cache = 0;
  if (cache_capacity < 0) {
    cache = count >= 64 ? std::min<std::size_t>(count / 16, 64) : 0;
  } else {
    cache = static_cast<std::size_t>(cache_capacity);
  }
  shared_ = std::make_shared<Shared>(count, bytes, cache);
}

PacketPool::~PacketPool() = default;

std::byte* PacketPool::try_acquire() {
  Shared& pool = *shared_;
  std::byte* packet = nullptr;
  if (pool.cache_capacity == 0) {
    if (!take(pool, packet)) return nullptr;
    pool.note_acquired(1);
    return packet;
  }
  ThreadCache& cache = thread_caches.find(shared_);
  if (cache.packets.empty()) {
    // Refill half a cache in one visit to the shared queue.
    const std::size_t batch = std::max<std::size_t>(1, pool.cache_capacity / 2);
    for (std::size_t i = 0; i < batch && take(pool, packet); ++i) cache.packets.push_back(packet);
    if (cache.packets.empty()) return nullptr;
    pool.note_acquired(cache.packets.size());
  }
  packet = cache.packets.back();
  cache.packets.pop_back();
  return packet;
}

void PacketPool::release(std::byte* packet) {
  Shared& pool = *shared_;
  if (pool.cache_capacity == 0) {
    give_back(pool, &packet, 1);
    return;
  }
  ThreadCache& cache = thread_caches.find(shared_);
  if (cache.packets.size() >= pool.cache_capacity) {
    // Spill the older half, keep the recently used (cache-warm) half.
    const std::size_t spill = cache.packets.size() / 2;
    give_back(pool, cache.packets.data(), spill);
    cache.packets.erase(cache.packets.begin(), cache.packets.begin() + static_cast<std::ptrdiff_t>(spill));
  }
  cache.packets.push_back(packet);
}

std::size_t PacketPool::count() const { return shared_->count; }
std::size_t PacketPool::packet_bytes() const { return shared_->packet_bytes; }
std::size_t PacketPool::cache_capacity() const { return shared_->cache_capacity; }
std::size_t PacketPool::in_use() const { return shared_->in_use.load(std::memory_order_relaxed); }
std::size_t PacketPool::high_water() const { return shared_->high_water.load(std::memory_order_relaxed); }
bool PacketPool::owns(const std::byte* packet) const {
  const Shared& pool = *shared_;
  return packet >= pool.arena && packet < pool.arena + pool.count * pool.packet_bytes &&
         (packet - pool.arena) % static_cast<std::ptrdiff_t>(pool.packet_bytes) == 0;
}

}  // namespace courier
