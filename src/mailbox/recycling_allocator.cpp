#include "recycling_allocator.hpp"

#include <bit>

namespace courier::mailbox::detail {

RecyclingAllocator::~RecyclingAllocator() {
  for (auto& blocks : free_) {
    for (std::byte* block : blocks) delete[] block;
  }
}

RecyclingAllocator& RecyclingAllocator::shared() {
  static RecyclingAllocator allocator;
  return allocator;
}

std::size_t RecyclingAllocator::class_of(std::size_t bytes) {
  const std::size_t bits = bytes <= (std::size_t{1} << min_class_bits) ? min_class_bits : std::bit_width(bytes - 1);
  return bits - min_class_bits;
}

std::byte* RecyclingAllocator::allocate(std::size_t bytes) {
  const std::size_t c = class_of(bytes);
  if (c < classes) {
    {
      std::lock_guard lock(mutex_);
      if (!free_[c].empty()) {
        std::byte* block = free_[c].back();
        free_[c].pop_back();
        return block;
      }
    }
    return new std::byte[std::size_t{1} << (c + min_class_bits)];
  }
  return new std::byte[bytes];
}

void RecyclingAllocator::deallocate(std::byte* data, std::size_t bytes) {
  const std::size_t c = class_of(bytes);
  if (c < classes) {
    std::lock_guard lock(mutex_);
    if (free_[c].size() < kept_per_class) {
      free_[c].push_back(data);
      return;
    }
  }
  delete[] data;
}

}  // namespace courier::mailbox::detail
