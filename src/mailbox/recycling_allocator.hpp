#pragma once
// RecyclingAllocator: where the mailbox's endpoint puts arriving batches. Batches are large
// (up to the capacity) and come and go at a steady rate; fresh heap blocks of that size are
// mapped and faulted in page by page every time, so freed blocks are kept per power-of-two size
// class and handed out again. allocate runs in progress (any thread), deallocate on the mailbox's
// thread, hence the lock (taken once per batch, not per message). One allocator serves every
// mailbox of the process: the runtime frees messages left in an endpoint when it shuts down,
// which may be after the mailbox that created the endpoint is gone.
#include <array>
#include <cstddef>
#include <mutex>
#include <vector>

#include "courier/comm/allocator.hpp"

namespace courier::mailbox::detail {

class RecyclingAllocator final : public comm::Allocator {
 public:
  RecyclingAllocator() = default;
  ~RecyclingAllocator() override;
  RecyclingAllocator(const RecyclingAllocator&) = delete;
  RecyclingAllocator& operator=(const RecyclingAllocator&) = delete;

  static RecyclingAllocator& shared();

  std::byte* allocate(std::size_t bytes) override;
  void deallocate(std::byte* data, std::size_t bytes) override;

 private:
  static constexpr std::size_t min_class_bits = 12;  // 4 KiB
  static constexpr std::size_t classes = 20;         // up to 2 GiB; larger blocks are not kept
  static constexpr std::size_t kept_per_class = 16;
  static std::size_t class_of(std::size_t bytes);

  std::mutex mutex_;
  std::array<std::vector<std::byte*>, classes> free_;
};

}  // namespace courier::mailbox::detail
