#pragma once
// Endpoint: where a thread posts communication and where completions are reported (paper 002).
// Every rank starts with the initial endpoint (id 0); more can be created, e.g. one per thread.
// Ids are given in creation order on each rank. A message goes to an endpoint of its destination
// rank: the one named by an Address at post time (any endpoint of any rank, ids exchanged as the
// program likes), or, when only a rank is named, the endpoint with the sender's own id -- then
// create endpoints in the same order on every rank. A message for an endpoint not created yet
// waits for it.
//
// The completion mechanism is a property of the endpoint, chosen at creation:
//   queue         completions go to the endpoint's bounded MPMC queue; take them with poll().
//                 Messages are delivered in first-packet order: the order their first packet
//                 (EGR or RTS) reached this rank; a rendezvous message holds back later ones
//                 until its data is in place.
//   synchronizer  the runtime calls signal() on the caller's synchronizer (Counter, Flag or own),
//                 in its runtime form (virtual) or its compile-time form (see synchronizer.hpp).
//   handler       the runtime calls the caller's function (active-message style).
// With match_tags, received messages wait until recv(source, tag) claims them (exact match on
// the source rank and the tag, whichever endpoint of the source sent it; no wildcards);
// otherwise every received message completes on its own. A recv names where the message goes:
// memory from the endpoint's allocator (dynamic allocation), or a buffer of the caller's
// (explicit buffer, paper 002).
//
// Every post answers done (finished, no completion follows), posted (a completion follows) or
// retry (no resources now, nothing happened: back off, let progress run, post again).
#include <cstddef>
#include <span>

#include "courier/comm/allocator.hpp"
#include "courier/comm/completion.hpp"
#include "courier/comm/synchronizer.hpp"

namespace courier::comm {

class Runtime;
struct RuntimeState;
class Endpoints;
struct EndpointState;
struct PostedRecv;

// Endpoint ids are below this.
inline constexpr std::size_t max_endpoints = 1024;

// An endpoint of a rank, as a sender names its destination.
struct Address {
  rank_t rank = 0;
  endpoint_id endpoint = 0;
};

enum class CompletionKind : std::uint8_t { queue, synchronizer, handler };

struct EndpointOptions {
  CompletionKind completion = CompletionKind::queue;
  std::size_t queue_capacity = 4096;    // completion queue entries (queue endpoints)
  SynchronizerRef synchronizer;         // synchronizer endpoints: &sync (compile-time form) or a
                                        // Synchronizer* (runtime form); it must outlive the runtime
  Handler handler;                      // handler endpoints
  Allocator* allocator = nullptr;       // for received messages; null: HeapAllocator
  bool match_tags = false;              // two-sided: messages wait for a matching recv()
  void* context = nullptr;              // reported with every unmatched received message
};

class Endpoint {
 public:
  Endpoint(const Endpoint&) = delete;
  Endpoint& operator=(const Endpoint&) = delete;

  endpoint_id id() const;
  rank_t rank() const;
  rank_t ranks() const;
  Runtime& runtime();

  // Two-sided send of `data` to endpoint to.endpoint of rank to.rank. Up to
  // Runtime::eager_limit() bytes go eager: the data is copied and the answer is done (no
  // completion follows). Larger ones go by rendezvous: the answer is posted, `data` must stay
  // valid and unchanged until this endpoint reports Op::send with `context`. The receiver's
  // completion names this endpoint (Completion::endpoint); throws courier::Error for a rank
  // outside [0, ranks()) or an endpoint id >= max_endpoints.
  Post send(Address to, tag_t tag, std::span<const std::byte> data, void* context = nullptr);
  // The same to the endpoint of `dest` with this endpoint's id.
  Post send(rank_t dest, tag_t tag, std::span<const std::byte> data, void* context = nullptr);

  // Queue endpoints: takes the next completion. When there is none, runs one round of progress
  // (unless another thread is progressing) and looks again; false when there is none now.
  bool poll(Completion& out);

  // match_tags endpoints, into memory from the endpoint's allocator: claims the message from
  // `source` with exactly `tag`. done: it had arrived (or arrived in the round of progress recv
  // runs when it is not there yet) and *out describes it (out must not be null); posted: its
  // completion (Op::recv, with `context`) is reported when it arrives. Give the memory back
  // with release().
  Post recv(rank_t source, tag_t tag, void* context, Completion* out);
  // match_tags endpoints, into the caller's buffer `into` (explicit buffer): as above, and the
  // completion (in *out when done, reported otherwise) has caller_buffer set, data ==
  // into.data() and size the bytes placed. Until it is reported, `into` must stay valid and
  // the caller must not touch it. A message larger than `into` is not an error: its first
  // into.size() bytes are placed, the rest dropped, and the completion has truncated set.
  // A recv posted before its message arrives gets it straight into `into` (an eager message
  // copied from the frame; a rendezvous one put there by the transport, no copy; a truncated
  // one put there up to into.size()); one that arrived first was put into allocator memory,
  // which is copied into `into` and freed. Messages with one source and tag match recvs in the
  // order of their first packets, whichever kind of recv claims them.
  Post recv(rank_t source, tag_t tag, std::span<std::byte> into, void* context, Completion* out);

  // One-sided: writes `data` at byte `offset` of window `window` at `target`, which exposed it
  // with Runtime::expose_window. Eager-sized puts answer done; larger ones posted (Op::put).
  // The target is not notified.
  Post put(rank_t target, window_id window, std::size_t offset, std::span<const std::byte> data,
           void* context = nullptr);
  // One-sided: reads into.size() bytes at `offset` of `window` at `target` into `into`; answers
  // posted (Op::get follows) or retry. The target's progress answers with a put.
  Post get(rank_t target, window_id window, std::size_t offset, std::span<std::byte> into,
           void* context = nullptr);

  // The allocator received messages came from; release(c) gives a recv's buffer back to it
  // (and does nothing for a recv into a caller's buffer).
  Allocator& allocator();
  void release(const Completion& received);

 private:
  friend class Runtime;
  friend class Endpoints;
  Endpoint(RuntimeState& runtime, EndpointState& state) : runtime_(&runtime), state_(&state) {}
  Post fail_retry();
  Post post_send(Address to, tag_t tag, std::span<const std::byte> data, void* context);
  Post claim(rank_t source, tag_t tag, const PostedRecv& recv, Completion* out);
  [[noreturn]] void endpoint_error(Address to) const;
  RuntimeState* runtime_;
  EndpointState* state_;
};

}  // namespace courier::comm
