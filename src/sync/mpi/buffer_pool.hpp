#pragma once
// BufferPool: communication buffers recycled between phases, with the footprint the paper
// measures (Fig. 5): every byte of buffer the channel allocates is counted until it is freed, so
// peak_bytes() is the most buffer memory alive at once. Fixed regions (RMA windows) count too.
// Thread-safe: compute threads acquire and release while the communication thread recycles.
#include <cstdint>
#include <mutex>
#include <vector>

#include "courier/sync/channel.hpp"

namespace courier::sync::mpi {

class BufferPool {
 public:
  // Keeps at most `keep` idle buffers; more are freed.
  explicit BufferPool(std::size_t keep) : keep_(keep) {}

  // An empty buffer with capacity of at least `bytes`: the best-fitting idle one, else a new one.
  Bytes acquire(std::size_t bytes);
  // Takes a buffer back; it stays alive (counted) while idle in the pool.
  void recycle(Bytes buffer);
  // A buffer the channel owns was reallocated from `before` to `after` bytes of capacity.
  void resized(std::size_t before, std::size_t after);
  // Memory that is not a Bytes buffer, such as an RMA window.
  void add_fixed(std::size_t bytes) { change(static_cast<std::int64_t>(bytes)); }
  void remove_fixed(std::size_t bytes) { change(-static_cast<std::int64_t>(bytes)); }

  // Frees the idle buffers; the peak starts again from what is alive.
  void restart_peak();

  std::uint64_t alive_bytes() const;
  std::uint64_t peak_bytes() const;

 private:
  void change(std::int64_t delta);

  mutable std::mutex mutex_;
  std::vector<Bytes> idle_;
  std::size_t keep_;
  std::int64_t alive_ = 0;
  std::int64_t peak_ = 0;
};

}  // namespace courier::sync::mpi
