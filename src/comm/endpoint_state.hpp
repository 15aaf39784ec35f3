#pragma once
// EndpointState: what the runtime keeps of one endpoint, behind its Endpoint handle.
#include <atomic>
#include <cstdint>
#include <deque>
#include <memory>

#include "courier/comm/endpoint.hpp"
#include "courier/core/mpmc_queue.hpp"
#include "matching.hpp"
#include "progress_lock.hpp"

namespace courier::comm {

// A message that arrived, waiting for its turn (first-packet order) or for room to complete.
struct Arrival {
  Completion completion;
  bool ready = false;    // false while a rendezvous put is filling the buffer
  bool matched = false;  // match_tags endpoints: its recv is known (completion has its context)
};

// What waits to be delivered to an endpoint; only the progress lock's holder touches it.
struct Waiting {
  std::deque<Arrival> arrivals;       // in first-packet order
  std::deque<Completion> completions;  // origin-side completions that found the queue full
  bool listed = false;                 // in Delivery's backlog
};

struct EndpointState {
  endpoint_id id = 0;
  EndpointOptions options;
  Allocator* allocator = nullptr;
  std::unique_ptr<MpmcQueue<Completion>> queue;  // queue endpoints
  std::unique_ptr<Endpoint> handle;
  // Posts answered retry (the slow path only; what was sent is counted as it is packed).
  // Its own cache line: the lock holder writes the fields below while posters count.
  alignas(cache_line_bytes) std::atomic<std::uint64_t> retries{0};
  alignas(cache_line_bytes) Locked<Waiting> waiting;
  Matching matching;  // match_tags endpoints
};

}  // namespace courier::comm
