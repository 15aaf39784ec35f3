#pragma once
// BatchBuffer: the growable byte array that coalesces records for one next hop. Unlike
// std::vector<std::byte> it does not zero what it grows into, since every byte is written next.
#include <cstddef>
#include <cstdlib>
#include <new>
#include <utility>

namespace courier::mailbox::detail {

class BatchBuffer {
 public:
  BatchBuffer() = default;
  BatchBuffer(const BatchBuffer&) = delete;
  BatchBuffer& operator=(const BatchBuffer&) = delete;
  BatchBuffer(BatchBuffer&& other) noexcept { swap(other); }
  BatchBuffer& operator=(BatchBuffer&& other) noexcept {
    swap(other);
    return *this;
  }
  ~BatchBuffer() { std::free(data_); }

  std::byte* data() { return data_; }
  const std::byte* data() const { return data_; }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  std::size_t records() const { return records_; }  // records appended since the last clear
  void clear() {
    size_ = 0;
    records_ = 0;
    window_end_ = 0;
    counted_ = 0;
  }

  // The fast-append window (Core's per-message path): bytes up to window_end() may be appended
  // with one bounds check and no other bookkeeping; the first counted() bytes are already in the
  // owner's byte count. The window never reaches past the allocation.
  bool fits_window(std::size_t bytes) const { return size_ + bytes <= window_end_; }
  // Only after fits_window(bytes).
  std::byte* extend_in_window(std::size_t bytes) {
    std::byte* at = data_ + size_;
    size_ += bytes;
    return at;
  }
  std::size_t window_end() const { return window_end_; }
  std::size_t counted() const { return counted_; }
  // Closes the window at the current size, everything counted.
  void close_window() { window_end_ = counted_ = size_; }
  // Appends one record of `bytes`, counted, and opens a window of `window` bytes after it,
  // allocating both now.
  std::byte* extend_and_open(std::size_t bytes, std::size_t window) {
    if (size_ + bytes + window > capacity_) grow(size_ + bytes + window);
    std::byte* at = data_ + size_;
    size_ += bytes;
    counted_ = size_;
    window_end_ = size_ + window;
    return at;
  }

  // Extends the buffer by one record of `bytes` and returns where they go.
  std::byte* extend_record(std::size_t bytes) {
    ++records_;
    return extend(bytes);
  }
  // Extends the buffer by `bytes` and returns where they go.
  std::byte* extend(std::size_t bytes) {
    if (size_ + bytes > capacity_) grow(size_ + bytes);
    std::byte* at = data_ + size_;
    size_ += bytes;
    return at;
  }

  void swap(BatchBuffer& other) noexcept {
    std::swap(data_, other.data_);
    std::swap(size_, other.size_);
    std::swap(capacity_, other.capacity_);
    std::swap(records_, other.records_);
    std::swap(window_end_, other.window_end_);
    std::swap(counted_, other.counted_);
  }

 private:
  void grow(std::size_t needed) {
    std::size_t capacity = capacity_ < 256 ? 256 : capacity_ * 2;
    while (capacity < needed) capacity *= 2;
    void* moved = std::realloc(data_, capacity);
    if (moved == nullptr) throw std::bad_alloc();
    data_ = static_cast<std::byte*>(moved);
    capacity_ = capacity;
  }

  std::byte* data_ = nullptr;
  std::size_t size_ = 0;
  std::size_t capacity_ = 0;
  std::size_t records_ = 0;
  std::size_t window_end_ = 0;
  std::size_t counted_ = 0;
};

}  // namespace courier::mailbox::detail
