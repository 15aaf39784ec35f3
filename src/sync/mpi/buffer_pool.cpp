#include "buffer_pool.hpp"

#include <algorithm>

namespace courier::sync::mpi {

Bytes BufferPool::acquire(std::size_t bytes) {
  {
    std::lock_guard lock(mutex_);
    auto best = idle_.end();
    for (auto it = idle_.begin(); it != idle_.end(); ++it)
      if (it->capacity() >= bytes && (best == idle_.end() || it->capacity() < best->capacity())) best = it;
    if (best != idle_.end()) {
      Bytes buffer = std::move(*best);
      *best = std::move(idle_.back());
      idle_.pop_back();
      buffer.clear();
      return buffer;
    }
  }
  Bytes buffer;
  buffer.reserve(std::max<std::size_t>(bytes, 64));
  change(static_cast<std::int64_t>(buffer.capacity()));
  return buffer;
}

void BufferPool::recycle(Bytes buffer) {
  if (buffer.capacity() == 0) return;
  std::lock_guard lock(mutex_);
  if (idle_.size() < keep_) {
    idle_.push_back(std::move(buffer));
    return;
  }
  // Full: free the smallest of the idle ones and this one, keeping the larger.
  auto smallest = std::min_element(idle_.begin(), idle_.end(),
                                   [](const Bytes& a, const Bytes& b) { return a.capacity() < b.capacity(); });
  if (smallest != idle_.end() && smallest->capacity() < buffer.capacity()) std::swap(*smallest, buffer);
  alive_ -= static_cast<std::int64_t>(buffer.capacity());
  // `buffer` is freed as it leaves scope.
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
  for (const Bytes& buffer : idle_) alive_ -= static_cast<std::int64_t>(buffer.capacity());
  idle_.clear();
  peak_ = alive_;
}

std::uint64_t BufferPool::alive_bytes() const {
  std::lock_guard lock(mutex_);
  return static_cast<std::uint64_t>(std::max<std::int64_t>(alive_, 0));
}

std::uint64_t BufferPool::peak_bytes() const {
  std::lock_guard lock(mutex_);
  return static_cast<std::uint64_t>(peak_);
}

}  // namespace courier::sync::mpi
