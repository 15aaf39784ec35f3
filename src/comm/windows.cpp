#include "windows.hpp"

#include <string>

#include "courier/core/error.hpp"

namespace courier::comm {

void Windows::expose(window_id id, std::span<std::byte> memory) {
  std::lock_guard lock(mutex_);
  windows_[id] = memory;
}

std::span<std::byte> Windows::span(window_id id, std::uint64_t offset, std::uint64_t size, const char* what) {
  std::lock_guard lock(mutex_);
  auto it = windows_.find(id);
  if (it == windows_.end()) {
    throw Error(std::string("comm: a ") + what + " on rank " + std::to_string(rank_) + " addressed window " +
                std::to_string(id) + ", which this rank has not exposed; call Runtime::expose_window first");
  }
  if (offset > it->second.size() || size > it->second.size() - offset) {
    throw Error(std::string("comm: a ") + what + " of " + std::to_string(size) + " bytes at offset " +
                std::to_string(offset) + " falls outside window " + std::to_string(id) + " (" +
                std::to_string(it->second.size()) + " bytes) on rank " + std::to_string(rank_));
  }
  return it->second.subspan(offset, size);
}

}  // namespace courier::comm
