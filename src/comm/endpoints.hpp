#pragma once
// Endpoints: the rank's endpoints by id. Any thread creates them (one at a time, under a mutex)
// and finds them without a lock: an id's slot is published once, with release.
#include <array>
#include <atomic>
#include <cstddef>
#include <memory>
#include <mutex>
#include <vector>

#include "endpoint_state.hpp"

namespace courier::comm {

struct RuntimeState;

class Endpoints {
 public:
  static constexpr std::size_t max = max_endpoints;

  // Null for an id not created (yet).
  EndpointState* find(endpoint_id id) const {
    return id < max ? by_id_[id].load(std::memory_order_acquire) : nullptr;
  }
  std::size_t count() const { return count_.load(std::memory_order_acquire); }
  EndpointState& operator[](std::size_t index) const { return *by_id_[index].load(std::memory_order_acquire); }

  // The endpoint with the next id, its handle posting through `runtime`.
  Endpoint& create(RuntimeState& runtime, EndpointOptions options);

 private:
  std::array<std::atomic<EndpointState*>, max> by_id_{};
  std::vector<std::unique_ptr<EndpointState>> storage_;  // guarded by mutex_
  std::mutex mutex_;
  std::atomic<std::size_t> count_{0};
};

}  // namespace courier::comm
