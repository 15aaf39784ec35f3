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
  }

  // Makes room for `bytes` more after the end (allocated now, not yet part of the buffer) and
  // returns where they start: Untyped's fast appends write there and commit what they wrote later.
  std::byte* reserve_tail(std::size_t bytes) {
    if (size_ + bytes > capacity_) grow(size_ + bytes);
    return data_ + size_;
  }
  // The first `bytes` of the reserved tail are part of the buffer now.
  void commit(std::size_t bytes) { size_ += bytes; }

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
};

}  // namespace courier::mailbox::detail
