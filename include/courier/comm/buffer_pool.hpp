#pragma once
// BufferPool: message buffers recycled instead of freed, and the footprint they make. Buffers
// come and go at a steady rate and are often large; a fresh heap block of that size is mapped and
// faulted in page by page every time, so idle ones are kept and handed out again. Every byte of
// buffer the pool allocates is counted until it is freed, so peak_bytes() is the most buffer
// memory alive at once (the footprint paper 000's Fig. 5 measures); memory that is not a buffer,
// such as an RMA window, can be counted too.
//
// PooledAllocator is the pool's face to the runtime (comm::Allocator), so that messages whose
// size is learnt on arrival land in pooled buffers as well.
//
// Thread-safe: one lock, taken once per buffer (never per message inside a batch).
#include <array>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "courier/comm/allocator.hpp"

namespace courier::comm {

using Buffer = std::vector<std::byte>;

class BufferPool {
 public:
  // Keeps at most `keep` idle buffers; beyond that the smallest are freed.
  explicit BufferPool(std::size_t keep) : keep_(keep) {}
  BufferPool(const BufferPool&) = delete;
  BufferPool& operator=(const BufferPool&) = delete;

  // An empty buffer with a capacity of at least max(bytes, 1) (never empty, so data() names it):
  // an idle one if one fits without wasting much (a small message must not hold a load's
  // buffer), else a new one.
  Buffer acquire(std::size_t bytes);
  // Takes a buffer back; it stays alive (counted) while idle in the pool.
  void recycle(Buffer buffer);
  // A buffer handed out was reallocated from `before` to `after` bytes of capacity.
  void resized(std::size_t before, std::size_t after);
  // Memory that is not a buffer, such as an RMA window.
  void add_fixed(std::size_t bytes) { change(static_cast<std::int64_t>(bytes)); }
  void remove_fixed(std::size_t bytes) { change(-static_cast<std::int64_t>(bytes)); }

  // Frees the idle buffers; the peak starts again from what is alive.
  void restart_peak();

  std::uint64_t alive_bytes() const;
  std::uint64_t peak_bytes() const;

 private:
  // Idle buffers by floor(log2(capacity)): class c holds capacities in [2^c, 2^(c+1)).
  static constexpr std::size_t kClasses = 48;
  // Any idle buffer up to this size serves any request up to it: small buffers are cheap to hold.
  static constexpr std::size_t kSmall = std::size_t{64} << 10;

  void change(std::int64_t delta);
  Buffer take_locked(std::vector<Buffer>& idle, Buffer& chosen);
  void free_locked(Buffer& buffer);

  mutable std::mutex mutex_;
  std::array<std::vector<Buffer>, kClasses> idle_;
  std::size_t idle_count_ = 0;
  const std::size_t keep_;
  std::int64_t alive_ = 0;
  std::int64_t peak_ = 0;
};

// Lends pooled buffers to the runtime as raw memory; deallocate gives them back to the pool. It
// must outlive every endpoint that allocates with it, including their shutdown.
class PooledAllocator final : public Allocator {
 public:
  explicit PooledAllocator(BufferPool& pool) : pool_(pool) {}

  std::byte* allocate(std::size_t bytes) override;
  void deallocate(std::byte* data, std::size_t bytes) override;

  // The buffer behind memory this allocator lent, which the caller now owns; throws
  // courier::Error for memory it did not lend.
  Buffer take(const std::byte* data);

 private:
  BufferPool& pool_;
  std::mutex mutex_;
  std::unordered_map<const std::byte*, Buffer> lent_;
};

}  // namespace courier::comm
