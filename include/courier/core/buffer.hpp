#pragma once
// Buffer<T>: an immutable contiguous array that either owns its elements or borrows them from a
// memory mapping it keeps alive. Graphs loaded with mmap and graphs built in memory look the same
// to everything above, and copies are cheap (the storage is shared, never mutated).
#include <cstddef>
#include <memory>
#include <span>
#include <utility>
#include <vector>

namespace courier {

template <class T>
class Buffer {
 public:
  using value_type = T;

  Buffer() = default;
  explicit Buffer(std::vector<T> elements) {
    auto owned = std::make_shared<const std::vector<T>>(std::move(elements));
    data_ = owned->data();
    size_ = owned->size();
    keep_alive_ = std::move(owned);
  }
  // Borrow `size` elements at `data`; `keep_alive` owns the memory (e.g. a mapping).
  Buffer(std::shared_ptr<const void> keep_alive, const T* data, std::size_t size)
      : keep_alive_(std::move(keep_alive)), data_(data), size_(size) {}

  const T* data() const { return data_; }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const T& operator[](std::size_t i) const { return data_[i]; }
  const T* begin() const { return data_; }
  const T* end() const { return data_ + size_; }
  std::span<const T> span() const { return {data_, size_}; }
  operator std::span<const T>() const { return span(); }

 private:
  std::shared_ptr<const void> keep_alive_;
  const T* data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace courier
