#pragma once
// What the runtime reports when a communication completes (paper 002, "completion events"):
// at the origin, the source buffer may be reused; at the target, the data is in place.
#include <cstddef>
#include <cstdint>
#include <functional>

#include "courier/net/device.hpp"

namespace courier::comm {

using net::Post;  // done | posted | retry, the answer of every post
using tag_t = std::uint64_t;
using endpoint_id = std::uint16_t;
using window_id = std::uint32_t;

enum class Op : std::uint8_t {
  send,  // origin: a posted (rendezvous) send finished; its source buffer may be reused
  recv,  // target: a message arrived; `data` is the caller's: from the endpoint's allocator, or
         // the buffer the caller gave recv (caller_buffer)
  put,   // origin: a posted (rendezvous) put finished; its source buffer may be reused
  get,   // origin: a get finished; the bytes are in the caller's destination buffer
};

struct Completion {
  Op op = Op::recv;
  bool truncated : 1 = false;      // recv into a caller's buffer: the message was larger; its first
                                   // `size` bytes are in the buffer, the rest was dropped
  bool caller_buffer : 1 = false;  // recv: `data` is the buffer given to recv, not the allocator's
                                   // (Endpoint::release leaves it alone)
  endpoint_id endpoint = 0;        // the peer's endpoint: the sender's of a recv, the destination's
                                   // of a send; 0 for put and get (they address windows)
  rank_t rank = -1;                // the peer: source of a recv, destination of a send/put, target of a get
  tag_t tag = 0;                   // the message tag; the window id for put and get
  std::size_t size = 0;            // bytes (recv into a caller's buffer: the bytes placed there)
  std::byte* data = nullptr;       // recv: the received bytes; send/put: the source; get: the destination
  void* context = nullptr;         // the caller's context: from the post (send/put/get/matched recv)
                                   // or from EndpointOptions::context (unmatched recv)
};

// A completion run by whoever progresses the runtime, active-message style. It must not block
// and must not wait for progress (it runs inside progress); it may post (send, put, get).
using Handler = std::function<void(const Completion&)>;

}  // namespace courier::comm
