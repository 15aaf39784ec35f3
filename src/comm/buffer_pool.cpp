#include "courier/comm/buffer_pool.hpp"

#include <algorithm>
#include <bit>

#include "courier/core/error.hpp"

namespace courier::comm {

namespace {

std::size_t class_of(std::size_t capacity) { return static_cast<std::size_t>(std::bit_width(capacity)) - 1; }

}  // namespace

Buffer BufferPool::acquire(std::size_t bytes) {
  bytes = std::max<std::size_t>(bytes, 1);
  {
    std::lock_guard lock(mutex_);
    const std::size_t first = static_cast<std::size_t>(std::bit_width(bytes - 1));  // 2^first >= bytes
    // Class first - 1 holds capacities in [2^first / 2, 2^first): the last few may fit exactly.
    if (first > 0) {
      std::vector<Buffer>& near = idle_[first - 1];
      for (std::size_t k = 0; k < std::min<std::size_t>(near.size(), 4); ++k) {
        Buffer& candidate = near[near.size() - 1 - k];
        if (candidate.capacity() >= bytes) return take_locked(near, candidate);
      }
    }
    // Every capacity from class `first` on fits; stop below 8x (or at kSmall's class).
    const std::size_t last = std::min(kClasses - 1, std::max(first + 1, class_of(kSmall)));
    for (std::size_t c = first; c <= last; ++c) {
      if (!idle_[c].empty()) return take_locked(idle_[c], idle_[c].back());
    }
  }
  Buffer buffer;
  buffer.reserve(bytes);
  change(static_cast<std::int64_t>(buffer.capacity()));
  return buffer;
}

void BufferPool::recycle(Buffer buffer) {
  if (buffer.capacity() == 0) return;
  std::lock_guard lock(mutex_);
  if (idle_count_ == keep_) {
    // Full: keep the larger of this one and the smallest idle one.
    const auto smallest = std::find_if(idle_.begin(), idle_.end(), [](const auto& c) { return !c.empty(); });
    if (smallest == idle_.end() || smallest->back().capacity() >= buffer.capacity()) {
      free_locked(buffer);
      return;
    }
    free_locked(smallest->back());
    smallest->pop_back();
    --idle_count_;
  }
  idle_[std::min(class_of(buffer.capacity()), kClasses - 1)].push_back(std::move(buffer));
  ++idle_count_;
}

Buffer BufferPool::take_locked(std::vector<Buffer>& idle, Buffer& chosen) {
  Buffer buffer = std::move(chosen);
  if (&chosen != &idle.back()) chosen = std::move(idle.back());
  idle.pop_back();
  --idle_count_;
  buffer.clear();
  return buffer;
}

void BufferPool::free_locked(Buffer& buffer) {
  alive_ -= static_cast<std::int64_t>(buffer.capacity());
  Buffer().swap(buffer);
}

void BufferPool::resized(std::size_t before, std::size_t after) {
  change(static_cast<std::int64_t>(after) - static_cast<std::int64_t>(before));
}

void BufferPool::change(std::int64_t delta) {
  std::lock_guard lock(mutex_);
  alive_ += delta;
  peak_ = std::max(peak_, alive_);
}

void BufferPool::restart_peak() {
  std::lock_guard lock(mutex_);
  for (auto& buffers : idle_) {
    for (Buffer& buffer : buffers) free_locked(buffer);
    buffers.clear();
  }
  idle_count_ = 0;
  peak_ = alive_;
}

std::uint64_t BufferPool::alive_bytes() const {
  std::lock_guard lock(mutex_);
  return static_cast<std::uint64_t>(std::max<std::int64_t>(alive_, 0));
}

std::uint64_t BufferPool::peak_bytes() const {
  std::lock_guard lock(mutex_);
  return static_cast<std::uint64_t>(std::max<std::int64_t>(peak_, 0));
}

std::byte* PooledAllocator::allocate(std::size_t bytes) {
  Buffer buffer = pool_.acquire(bytes);
  buffer.resize(bytes);  // within the capacity: no reallocation
  std::byte* data = buffer.data();
  std::lock_guard lock(mutex_);
  lent_.emplace(data, std::move(buffer));  // moving a vector keeps its data where it is
  return data;
}

void PooledAllocator::deallocate(std::byte* data, std::size_t) { pool_.recycle(take(data)); }

Buffer PooledAllocator::take(const std::byte* data) {
  std::lock_guard lock(mutex_);
  const auto it = lent_.find(data);
  if (it == lent_.end()) throw Error("pooled allocator: memory this allocator did not lend");
  Buffer buffer = std::move(it->second);
  lent_.erase(it);
  return buffer;
}

}  // namespace courier::comm
