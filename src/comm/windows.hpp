#pragma once
// Windows: the memory this rank exposed for one-sided put and get, by id. Exposed by any thread
// (Runtime::expose_window), read by the progress lock's holder as puts and gets arrive.
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <span>
#include <unordered_map>

#include "courier/comm/completion.hpp"

namespace courier::comm {

class Windows {
 public:
  explicit Windows(rank_t rank) : rank_(rank) {}
  void expose(window_id id, std::span<std::byte> memory);
  // `size` bytes at `offset` of window `id`, for a `what` ("put", "get") from another rank;
  // throws if the window is unknown or too small.
  std::span<std::byte> span(window_id id, std::uint64_t offset, std::uint64_t size, const char* what);

 private:
  const rank_t rank_;
  std::mutex mutex_;
  std::unordered_map<window_id, std::span<std::byte>> windows_;
};

}  // namespace courier::comm
