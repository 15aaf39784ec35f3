// What the progress engine does with each arriving packet (paper 000, Algorithm 3): EGR and RTS
// become arrivals at their endpoint, RTR starts the origin's put, GET is answered with a put,
// FIN counts towards shutdown; and how completions reach an endpoint's mechanism.
#include <cstring>
#include <string>

#include "courier/core/error.hpp"
#include "engine.hpp"

namespace courier::comm {

void Engine::on_frame(const ProgressToken& token, rank_t source, std::span<const std::byte> frame) {
  bump(counters.frames_received);
  Heard& peer = heard[static_cast<std::size_t>(source)];
  std::size_t offset = 0;
  std::size_t packets = 0;
  while (offset < frame.size()) {
    wire::Header h;
    if (frame.size() - offset < sizeof h) {
      throw Error("comm: corrupt frame from rank " + std::to_string(source) + " (truncated header); the transport damaged it");
    }
    std::memcpy(&h, frame.data() + offset, sizeof h);
    if (h.payload > frame.size() - offset - sizeof h) {
      throw Error("comm: corrupt frame from rank " + std::to_string(source) + " (payload past the end); the transport damaged it");
    }
    const auto payload = frame.subspan(offset + sizeof h, h.payload);
    if (h.type != wire::Type::fin) {
      ++peer.packets_received;
      ++packets;
    }
    if (!dispatch(token, source, h, payload)) {
      std::vector<std::byte> bytes(sizeof h + payload.size());
      std::memcpy(bytes.data(), &h, sizeof h);
      if (!payload.empty()) std::memcpy(bytes.data() + sizeof h, payload.data(), payload.size());
      orphans.emplace_back(source, std::move(bytes));
    }
    offset += wire::packed_size(h);
  }
  bump(counters.packets_received, packets);
}

bool Engine::dispatch(const ProgressToken& token, rank_t source, const wire::Header& h, std::span<const std::byte> payload) {
  switch (h.type) {
    case wire::Type::egr: {
      EndpointState* e = endpoints.find(h.endpoint);
      if (e == nullptr) return false;  // not created here yet: wait for it
      std::byte* data = e->allocator->allocate(payload.size());
      if (!payload.empty()) std::memcpy(data, payload.data(), payload.size());
      bump(counters.messages_received);
      bump(counters.bytes_received, payload.size());
      deliver_arrival(*e, Completion{Op::recv, source, h.tag, payload.size(), data, e->options.context});
      return true;
    }
    case wire::Type::rts: {
      EndpointState* e = endpoints.find(h.endpoint);
      if (e == nullptr) return false;
      const std::size_t size = h.b;
      std::byte* data = e->allocator->allocate(size);
      bump(counters.messages_received);
      bump(counters.bytes_received, size);
      // The arrival takes its place in first-packet order now and becomes ready when the put lands.
      e->arrivals.push_back(Arrival{Completion{Op::recv, source, h.tag, size, data, e->options.context}, false});
      note_backlog(*e);
      const std::uint64_t key = next_incoming++;
      incoming.emplace(key, Incoming{source, e, &e->arrivals.back()});
      expose_and_answer(token, PendingExpose{source, std::span(data, size), key, h.a});
      return true;
    }
    case wire::Type::put_egr: {
      auto target = windows.span(static_cast<window_id>(h.tag), h.a, payload.size(), "put");
      if (!payload.empty()) std::memcpy(target.data(), payload.data(), payload.size());
      return true;
    }
    case wire::Type::put_rts: {
      auto target = windows.span(static_cast<window_id>(h.tag), h.c, h.b, "put");
      const std::uint64_t key = next_incoming++;
      incoming.emplace(key, Incoming{source, nullptr, nullptr});
      expose_and_answer(token, PendingExpose{source, target, key, h.a});
      return true;
    }
    case wire::Type::rtr: {
      net::RemoteRegion region;
      if (payload.size() != sizeof region) throw Error("comm: malformed RTR from rank " + std::to_string(source));
      std::memcpy(&region, payload.data(), sizeof region);
      const Transfer& rec = slots.at(h.a);
      start_put(source, region, std::span(rec.source, rec.size), h.a);
      return true;
    }
    case wire::Type::get: {
      net::RemoteRegion region;
      if (payload.size() != sizeof region) throw Error("comm: malformed GET from rank " + std::to_string(source));
      std::memcpy(&region, payload.data(), sizeof region);
      auto from = windows.span(static_cast<window_id>(h.tag), h.c, h.b, "get");
      start_put(source, region, from, get_answer_context);
      return true;
    }
    case wire::Type::fin: {
      Heard& peer = heard[static_cast<std::size_t>(source)];
      peer.fin_received = true;
      peer.fin_count = h.a;
      return true;
    }
  }
  throw Error("comm: unknown packet type " + std::to_string(static_cast<int>(h.type)) + " from rank " +
              std::to_string(source) + "; are all ranks running the same Courier build?");
}

void Engine::expose_and_answer(const ProgressToken& token, PendingExpose expose) {
  net::RemoteRegion named;
  if (device->try_expose(expose.origin, expose.region, expose.context, named) == Post::retry) {
    bump(counters.device_retries);
    pending_exposes.push_back(expose);
    return;
  }
  wire::Header rtr;
  rtr.type = wire::Type::rtr;
  rtr.a = expose.slot;
  outgoing.send_control(token, expose.origin, rtr, std::as_bytes(std::span(&named, 1)));
}

void Engine::start_put(rank_t target, const net::RemoteRegion& region, std::span<const std::byte> data,
                       std::uint64_t context) {
  switch (device->try_put(target, region, data, context)) {
    case Post::done:
      if (context != get_answer_context) complete_origin(static_cast<std::uint32_t>(context));
      break;
    case Post::posted:
      break;  // on_put_sent follows
    case Post::retry:
      bump(counters.device_retries);
      pending_puts.push_back(PendingPut{target, region, data, context});
      break;
  }
}

void Engine::on_put_sent(std::uint64_t context) {
  if (context != get_answer_context) complete_origin(static_cast<std::uint32_t>(context));
}

void Engine::on_put_arrived(std::uint64_t context) {
  if (context & get_expose_flag) {
    complete_origin(static_cast<std::uint32_t>(context & ~get_expose_flag));
    return;
  }
  auto it = incoming.find(context);
  if (it == incoming.end()) {
    throw Error("comm: a put arrived for unknown region " + std::to_string(context) + " on rank " + std::to_string(rank));
  }
  if (it->second.arrival != nullptr) it->second.arrival->ready = true;
  incoming.erase(it);
}

void Engine::complete_origin(std::uint32_t slot) {
  const Transfer rec = slots.at(slot);
  slots.give_back(slot);
  const Completion c{rec.op, rec.peer, rec.tag, rec.size,
                     rec.op == Op::get ? rec.destination : const_cast<std::byte*>(rec.source), rec.context};
  EndpointState& e = *endpoints.find(rec.endpoint);
  if (!e.local_completions.empty() || !complete(e, c)) {
    e.local_completions.push_back(c);
    note_backlog(e);
  }
}

void Engine::deliver_arrival(EndpointState& e, const Completion& c) {
  if (e.arrivals.empty()) {
    if (complete_received(e, c)) return;
    if (closing.load(std::memory_order_relaxed)) {
      discard(e, c);
      return;
    }
  }
  e.arrivals.push_back(Arrival{c, true});
  note_backlog(e);
}

std::size_t Engine::drain_arrivals(EndpointState& e) {
  std::size_t delivered = 0;
  while (!e.arrivals.empty() && e.arrivals.front().ready) {
    if (!complete_received(e, e.arrivals.front().completion)) {
      if (!closing.load(std::memory_order_relaxed)) break;
      discard(e, e.arrivals.front().completion);
    }
    e.arrivals.pop_front();
    ++delivered;
  }
  return delivered;
}

void Engine::discard(EndpointState& e, const Completion& c) {
  e.allocator->deallocate(c.data, c.size);
  bump(counters.discarded);
}

bool Engine::complete(EndpointState& e, const Completion& c) {
  switch (e.options.completion) {
    case CompletionKind::queue:
      // The poller running this round takes it from hand to hand, if it would be next anyway.
      if (catcher.endpoint == &e && !catcher.caught && e.queue->empty_approx()) [[likely]] {
        *catcher.out = c;
        catcher.caught = true;
        return true;
      }
      return e.queue->try_push(c);
    case CompletionKind::synchronizer:
      e.options.synchronizer->signal(c);
      return true;
    case CompletionKind::handler:
      e.options.handler(c);
      return true;
  }
  return false;
}

bool Engine::complete_received(EndpointState& e, const Completion& received) {
  if (!e.options.match_tags) return complete(e, received);
  Completion c = received;
  switch (e.matching.match(c, c.context)) {
    case Matching::Match::kept:
      return true;
    case Matching::Match::kept_too_many:
      note_backlog(e);
      return true;
    case Matching::Match::recv:
      break;
  }
  // Outside the matching's mutex: the mechanism may run a handler that posts a recv here.
  if (complete(e, c)) return true;
  e.matching.unmatch(c, c.context);
  return false;
}

}  // namespace courier::comm
