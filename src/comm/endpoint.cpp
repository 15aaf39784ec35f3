// The posting side (paper 000, Algorithm 1), on the caller's thread. An eager send is a header
// and a memcpy straight into the destination's frame, handed to the device, when nothing is
// queued for that destination and nobody is progressing (the latency path); otherwise a packet
// from this thread's cache, a header and a memcpy, one MPMC enqueue towards the destination,
// packed with others into one frame by whoever progresses next (the throughput path). A poll or
// recv that finds nothing runs one round of progress itself, unless another thread is doing so.
#include <cstring>

#include "courier/core/error.hpp"
#include "runtime_state.hpp"

namespace courier::comm {

namespace {

// Eager: the data travels with the header, straight into a frame when dest is quiet, otherwise in
// a queued packet. False (nothing sent) when neither has room now.
bool post_eager(RuntimeState& rt, rank_t dest, const wire::Header& h, std::span<const std::byte> data) {
  Outgoing& outgoing = rt.progress.outgoing;
  return outgoing.try_send_direct(dest, h, data) || outgoing.enqueue(dest, h, data, data.size());
}

// Rendezvous-style posts (RTS, put RTS, get): reserves a slot for `transfer`, sends its header
// (h.a names the slot) and keeps the slot until the transfer completes. False (nothing reserved)
// when no slot or packet is free.
bool post_with_slot(RuntimeState& rt, rank_t dest, wire::Header h, const Transfer& transfer,
                    std::size_t payload_bytes = 0) {
  std::uint32_t slot = 0;
  if (!rt.slots.try_take(transfer, slot)) return false;
  h.a = slot;
  if (!rt.progress.outgoing.enqueue(dest, h, {}, payload_bytes)) {
    rt.slots.give_back(slot);
    return false;
  }
  return true;
}

}  // namespace

endpoint_id Endpoint::id() const { return state_->id; }
rank_t Endpoint::rank() const { return runtime_->rank; }
rank_t Endpoint::ranks() const { return runtime_->ranks; }
Runtime& Endpoint::runtime() { return runtime_->runtime; }
Allocator& Endpoint::allocator() { return *state_->allocator; }
void Endpoint::release(const Completion& received) {
  if (!received.caller_buffer) state_->allocator->deallocate(received.data, received.size);
}

Post Endpoint::fail_retry() {
  state_->retries.fetch_add(1, std::memory_order_relaxed);
  return Post::retry;
}

// Both sends, inlined into each: the rank-only one is the hot path of every existing caller.
[[gnu::always_inline]] inline Post Endpoint::post_send(Address to, tag_t tag, std::span<const std::byte> data,
                                                       void* context) {
  RuntimeState& rt = *runtime_;
  EndpointState& s = *state_;
  rt.check_peer(to.rank, "send");
  if (to.endpoint >= max_endpoints) [[unlikely]]
    endpoint_error(to);
  rt.progress.shutdown.check_open("send");
  wire::Header h;
  h.endpoint = to.endpoint;
  h.tag = tag;
  h.c = s.id;
  if (data.size() <= rt.eager_limit) {
    h.type = wire::Type::egr;
    h.payload = static_cast<std::uint32_t>(data.size());
    return post_eager(rt, to.rank, h, data) ? Post::done : fail_retry();
  }
  h.type = wire::Type::rts;
  h.b = data.size();
  const Transfer transfer{Op::send, s.id, to.endpoint, to.rank, tag, data.data(), nullptr, data.size(), context};
  return post_with_slot(rt, to.rank, h, transfer) ? Post::posted : fail_retry();
}

Post Endpoint::send(Address to, tag_t tag, std::span<const std::byte> data, void* context) {
  return post_send(to, tag, data, context);
}

Post Endpoint::send(rank_t dest, tag_t tag, std::span<const std::byte> data, void* context) {
  return post_send(Address{dest, state_->id}, tag, data, context);
}

bool Endpoint::poll(Completion& out) {
  if (!state_->queue) {
    throw Error("comm::Endpoint::poll: endpoint " + std::to_string(state_->id) +
                " reports completions by synchronizer or handler, not by queue");
  }
  if (state_->queue->try_pop(out)) return true;
  return runtime_->progress.poll(*state_, out) || state_->queue->try_pop(out);
}

Post Endpoint::recv(rank_t source, tag_t tag, void* context, Completion* out) {
  return claim(source, tag, PostedRecv{context, false, {}}, out);
}

Post Endpoint::recv(rank_t source, tag_t tag, std::span<std::byte> into, void* context, Completion* out) {
  const Post answer = claim(source, tag, PostedRecv{context, true, into}, out);
  // It had arrived, into allocator memory.
  if (answer == Post::done) place_in_caller_buffer(*state_->allocator, *out, into);
  return answer;
}

Post Endpoint::claim(rank_t source, tag_t tag, const PostedRecv& recv, Completion* out) {
  runtime_->check_peer(source, "recv");
  if (!state_->options.match_tags) {
    throw Error("comm::Endpoint::recv: endpoint " + std::to_string(state_->id) +
                " delivers every message on its own; create it with EndpointOptions::match_tags to use recv");
  }
  if (out == nullptr) throw Error("comm::Endpoint::recv: pass a Completion to fill when the message is already here");
  Matching& matching = state_->matching;
  if (matching.claim(source, tag, recv, out, false)) return Post::done;
  runtime_->progress.try_round();  // it may be on its way
  return matching.claim(source, tag, recv, out, true) ? Post::done : Post::posted;
}

void Endpoint::endpoint_error(Address to) const {
  throw Error("comm::Endpoint::send: endpoint " + std::to_string(to.endpoint) + " of rank " + std::to_string(to.rank) +
              " cannot exist; endpoint ids are below " + std::to_string(max_endpoints));
}

Post Endpoint::put(rank_t target, window_id window, std::size_t offset, std::span<const std::byte> data,
                   void* context) {
  RuntimeState& rt = *runtime_;
  EndpointState& s = *state_;
  rt.check_peer(target, "put");
  rt.progress.shutdown.check_open("put");
  wire::Header h;
  h.endpoint = s.id;
  h.tag = window;
  if (data.size() <= rt.eager_limit) {
    h.type = wire::Type::put_egr;
    h.a = offset;
    h.payload = static_cast<std::uint32_t>(data.size());
    return post_eager(rt, target, h, data) ? Post::done : fail_retry();
  }
  h.type = wire::Type::put_rts;
  h.b = data.size();
  h.c = offset;
  const Transfer transfer{Op::put, s.id, 0, target, window, data.data(), nullptr, data.size(), context};
  return post_with_slot(rt, target, h, transfer) ? Post::posted : fail_retry();
}

Post Endpoint::get(rank_t target, window_id window, std::size_t offset, std::span<std::byte> into, void* context) {
  RuntimeState& rt = *runtime_;
  EndpointState& s = *state_;
  rt.check_peer(target, "get");
  rt.progress.shutdown.check_open("get");
  wire::Header h;
  h.type = wire::Type::get;
  h.endpoint = s.id;
  h.tag = window;
  h.b = into.size();
  h.c = offset;
  const Transfer transfer{Op::get, s.id, 0, target, window, nullptr, into.data(), into.size(), context};
  // The payload (the exposed destination) is filled in by the progress lock's holder when it packs the packet.
  return post_with_slot(rt, target, h, transfer, sizeof(net::RemoteRegion)) ? Post::posted : fail_retry();
}

}  // namespace courier::comm
