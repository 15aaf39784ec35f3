#pragma once
// Allocator: where the runtime puts a message whose size it learns only when the message
// arrives (paper 002, "dynamic allocation"). Called by whichever thread progresses; it must be
// thread-safe if the caller's threads also use it. It must return memory or throw.
#include <cstddef>

namespace courier::comm {

class Allocator {
 public:
  virtual ~Allocator() = default;
  virtual std::byte* allocate(std::size_t bytes) = 0;
  virtual void deallocate(std::byte* data, std::size_t bytes) = 0;
};

// The default: operator new[] / delete[].
class HeapAllocator final : public Allocator {
 public:
  std::byte* allocate(std::size_t bytes) override { return new std::byte[bytes == 0 ? 1 : bytes]; }
  void deallocate(std::byte* data, std::size_t) override { delete[] data; }
  static HeapAllocator& instance();
};

}  // namespace courier::comm
