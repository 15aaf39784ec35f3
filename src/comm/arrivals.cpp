#include "arrivals.hpp"

#include <algorithm>
#include <cstring>
#include <string>

#include "courier/core/error.hpp"

namespace courier::comm {

void Arrivals::Sink::on_frame(rank_t source, std::span<const std::byte> frame) {
  ProgressToken token = token_;
  Arrivals& arrivals = arrivals_;
  bump(arrivals.counters_.frames_received);
  Held& held = arrivals.held_.get(token);
  Source& from = held.sources[static_cast<std::size_t>(source)];
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
      ++from.packets_received;
      ++packets;
    }
    if (!arrivals.dispatch(token, source, h, payload)) {
      std::vector<std::byte> bytes(sizeof h + payload.size());
      std::memcpy(bytes.data(), &h, sizeof h);
      if (!payload.empty()) std::memcpy(bytes.data() + sizeof h, payload.data(), payload.size());
      held.orphans.emplace_back(source, std::move(bytes));
    }
    offset += wire::packed_size(h);
  }
  bump(arrivals.counters_.packets_received, packets);
}

inline Completion Arrivals::received(EndpointState& e, rank_t source, const wire::Header& h, std::size_t size) {
  bump(counters_.messages_received);
  bump(counters_.bytes_received, size);
  return Completion{.op = Op::recv,
                    .endpoint = static_cast<endpoint_id>(h.c),
                    .rank = source,
                    .tag = h.tag,
                    .size = size,
                    .context = e.options.context};
}

bool Arrivals::place_for_recv(EndpointState& e, Completion& c) {
  PostedRecv recv;
  if (!e.matching.take_posted(c.rank, c.tag, recv)) {
    c.data = e.allocator->allocate(c.size);
    return false;
  }
  c.context = recv.context;
  if (recv.caller_buffer) {
    c.truncated = c.size > recv.into.size();
    c.caller_buffer = true;
    c.size = std::min(c.size, recv.into.size());
    c.data = recv.into.data();
  } else {
    c.data = e.allocator->allocate(c.size);
  }
  return true;
}

bool Arrivals::dispatch(ProgressToken token, rank_t source, const wire::Header& h,
                        std::span<const std::byte> payload) {
  switch (h.type) {
    case wire::Type::egr: {
      EndpointState* e = endpoints_.find(h.endpoint);
      if (e == nullptr) return false;  // not created here yet: wait for it
      Completion c = received(*e, source, h, payload.size());
      bool matched = false;
      if (e->options.match_tags) [[unlikely]] {
        matched = place_for_recv(*e, c);  // straight into its buffer, if its recv is here
      } else {
        c.data = e->allocator->allocate(c.size);
      }
      if (c.size > 0) std::memcpy(c.data, payload.data(), c.size);
      delivery_.deliver(token, *e, c, matched);
      return true;
    }
    case wire::Type::rts: {
      EndpointState* e = endpoints_.find(h.endpoint);
      if (e == nullptr) return false;
      Completion c = received(*e, source, h, h.b);
      bool matched = false;
      if (e->options.match_tags) [[unlikely]] {
        matched = place_for_recv(*e, c);  // the origin puts (up to its size) straight into it
      } else {
        c.data = e->allocator->allocate(c.size);
      }
      // The message takes its place in first-packet order now and becomes ready when the put lands.
      Arrival& arrival = delivery_.hold(token, *e, c, matched);
      rendezvous_.expose(token, source, std::span(c.data, c.size), &arrival, h.a);
      return true;
    }
    case wire::Type::put_egr: {
      auto target = windows_.span(static_cast<window_id>(h.tag), h.a, payload.size(), "put");
      if (!payload.empty()) std::memcpy(target.data(), payload.data(), payload.size());
      return true;
    }
    case wire::Type::put_rts: {
      auto target = windows_.span(static_cast<window_id>(h.tag), h.c, h.b, "put");
      rendezvous_.expose(token, source, target, nullptr, h.a);
      return true;
    }
    case wire::Type::rtr: {
      net::RemoteRegion region;
      if (payload.size() != sizeof region) throw Error("comm: malformed RTR from rank " + std::to_string(source));
      std::memcpy(&region, payload.data(), sizeof region);
      rendezvous_.answer_rtr(token, source, region, h.a);
      return true;
    }
    case wire::Type::get: {
      net::RemoteRegion region;
      if (payload.size() != sizeof region) throw Error("comm: malformed GET from rank " + std::to_string(source));
      std::memcpy(&region, payload.data(), sizeof region);
      auto from = windows_.span(static_cast<window_id>(h.tag), h.c, h.b, "get");
      rendezvous_.answer_get(token, source, region, from);
      return true;
    }
    case wire::Type::fin: {
      Source& from = held_.get(token).sources[static_cast<std::size_t>(source)];
      from.fin_received = true;
      from.fin_count = h.a;
      return true;
    }
  }
  throw Error("comm: unknown packet type " + std::to_string(static_cast<int>(h.type)) + " from rank " +
              std::to_string(source) + "; are all ranks running the same Courier build?");
}

std::size_t Arrivals::retry_orphans_now(ProgressToken token, bool closing, bool& blocked) {
  auto& orphans = held_.get(token).orphans;
  std::size_t work = 0;
  auto waiting = std::move(orphans);
  orphans.clear();
  for (auto& [source, bytes] : waiting) {
    wire::Header h;
    std::memcpy(&h, bytes.data(), sizeof h);
    if (dispatch(token, source, h, std::span(bytes).subspan(sizeof h, h.payload))) {
      ++work;
    } else if (closing) {
      bump(counters_.discarded);
    } else {
      orphans.emplace_back(source, std::move(bytes));
    }
  }
  blocked = blocked || orphans.size() > orphan_limit_;
  return work;
}

}  // namespace courier::comm
