#include "outgoing.hpp"

#include <bit>
#include <cstring>

namespace courier::comm {

Outgoing::Outgoing(net::Device& device, PacketPool& pool, ProgressLock& lock, const OriginSlots& slots, rank_t ranks,
                   std::size_t queue_packets)
    : device_(device),
      pool_(pool),
      lock_(lock),
      slots_(slots),
      frame_bytes_(device.max_frame_bytes()),
      queue_packets_(queue_packets),
      pending_(new std::atomic<std::uint32_t>[static_cast<std::size_t>(ranks)]),
      queue_(pool.count()),
      held_(ranks, frame_bytes_) {
  for (rank_t r = 0; r < ranks; ++r) pending_[static_cast<std::size_t>(r)].store(0, std::memory_order_relaxed);
}

std::size_t Outgoing::fixed_bytes(rank_t ranks, std::size_t packet_count, std::size_t frame_bytes) {
  const auto peers = static_cast<std::size_t>(ranks);
  // pending_ and the packings' pointers per peer; the queue's cells; the frame.
  return peers * (sizeof(std::atomic<std::uint32_t>) + sizeof(std::unique_ptr<Packing>) + sizeof(rank_t)) +
         std::bit_ceil(packet_count) * cache_line_bytes + frame_bytes + sizeof(Outgoing);
}

bool Outgoing::enqueue(rank_t dest, wire::Header h, std::span<const std::byte> payload, std::size_t payload_bytes) {
  std::atomic<std::uint32_t>& pending = pending_[static_cast<std::size_t>(dest)];
  // Counted before it is pushed, so the latency path never overtakes a packet on its way.
  if (pending.fetch_add(1, std::memory_order_acq_rel) >= queue_packets_) {
    pending.fetch_sub(1, std::memory_order_relaxed);
    return false;
  }
  std::byte* packet = pool_.try_acquire();
  if (packet == nullptr) {
    pending.fetch_sub(1, std::memory_order_relaxed);
    return false;
  }
  h.payload = static_cast<std::uint32_t>(payload_bytes);
  std::memcpy(packet, &h, sizeof h);
  if (!payload.empty()) std::memcpy(packet + sizeof h, payload.data(), payload.size());
  if (!queue_.try_push(Queued{packet, dest})) {  // room for every packet: only a spurious failure
    pool_.release(packet);
    pending.fetch_sub(1, std::memory_order_relaxed);
    return false;
  }
  return true;
}

Outgoing::Packing& Outgoing::packing(Held& held, rank_t dest) {
  std::unique_ptr<Packing>& p = held.packings[static_cast<std::size_t>(dest)];
  if (!p) {
    p = std::make_unique<Packing>();
    ++held.made;
  }
  return *p;
}

bool Outgoing::try_send_direct(rank_t dest, const wire::Header& h, std::span<const std::byte> payload) {
  // Keep this thread's earlier packets first.
  if (pending_[static_cast<std::size_t>(dest)].load(std::memory_order_acquire) != 0) return false;
  ProgressLock::Guard lock = lock_.try_hold();
  if (!lock) return false;
  Held& held = held_.get(lock.token());
  Packing& p = packing(held, dest);
  if (!p.nothing_held() || p.direct_round == held.round) return false;
  p.direct_round = held.round;
  const std::size_t used = wire::packed_size(h);
  std::byte* out = held.frame.data();
  std::memcpy(out, &h, sizeof h);
  if (!payload.empty()) std::memcpy(out + sizeof h, payload.data(), payload.size());
  ++p.packets_sent;
  bump(counters_.packets_sent);
  count_packed(h);
  // Accepted either way: a frame the transport refuses is kept for the next flush.
  if (!send_frame(dest, std::span(held.frame).first(used))) {
    p.kept.assign(out, out + used);
    list_for_flush(held, dest, p);
  }
  return true;
}

void Outgoing::list_for_flush(Held& held, rank_t dest, Packing& p) {
  if (p.listed) return;
  p.listed = true;
  held.flushing.push_back(dest);
}

void Outgoing::take_queued(Held& held) {
  Queued q;
  while (queue_.try_pop(q)) {
    Packing& p = packing(held, q.dest);
    p.queued.push_back(q.packet);
    list_for_flush(held, q.dest, p);
  }
}

std::size_t Outgoing::flush_listed(ProgressToken token) {
  Held& held = held_.get(token);
  if (!queue_.empty_approx()) take_queued(held);
  if (held.flushing.empty()) return 0;
  const std::size_t frames_before = counters_.frames_sent.load(std::memory_order_relaxed);
  for (std::size_t i = 0; i < held.flushing.size();) {
    const rank_t dest = held.flushing[i];
    Packing& p = *held.packings[static_cast<std::size_t>(dest)];
    if (flush(held, dest, p)) {
      p.listed = false;
      held.flushing[i] = held.flushing.back();
      held.flushing.pop_back();
    } else {
      ++i;
    }
  }
  return counters_.frames_sent.load(std::memory_order_relaxed) - frames_before;
}

bool Outgoing::send_frame(rank_t dest, std::span<const std::byte> frame) {
  if (device_.try_send(dest, frame) == Post::retry) {
    bump(counters_.device_retries);
    return false;
  }
  bump(counters_.frames_sent);
  bump(counters_.frame_bytes_sent, frame.size());
  return true;
}

bool Outgoing::flush(Held& held, rank_t dest, Packing& p) {
  for (int frames = 0; frames < 4; ++frames) {
    if (!p.kept.empty()) {
      if (!send_frame(dest, p.kept)) return false;
      std::vector<std::byte>().swap(p.kept);  // its buffer goes too: peers refused rarely hold none
      continue;
    }
    const std::size_t used = fill_frame(held, dest, p);
    if (used == 0) return p.nothing_held();  // nothing left, unless a GET waits to be exposed
    if (!send_frame(dest, std::span(held.frame).first(used))) {
      p.kept.assign(held.frame.data(), held.frame.data() + used);
      return false;
    }
  }
  return false;  // more may wait; give the other destinations their turn first
}

void Outgoing::count_packed(const wire::Header& h) {
  switch (h.type) {
    case wire::Type::egr:
      bump(counters_.messages_sent);
      bump(counters_.eager_sent);
      bump(counters_.bytes_sent, h.payload);
      break;
    case wire::Type::rts:
      bump(counters_.messages_sent);
      bump(counters_.rendezvous_sent);
      bump(counters_.bytes_sent, h.b);
      break;
    case wire::Type::put_egr:
    case wire::Type::put_rts:
      bump(counters_.puts);
      break;
    case wire::Type::get:
      bump(counters_.gets);
      break;
    default:
      break;  // the runtime's own control packets
  }
}

std::size_t Outgoing::fill_frame(Held& held, rank_t dest, Packing& p) {
  std::byte* out = held.frame.data();
  std::size_t used = 0;
  std::size_t packed = 0;
  while (true) {
    if (p.control_next < p.control.size()) {
      const std::vector<std::byte>& bytes = p.control[p.control_next];
      if (used + bytes.size() > frame_bytes_) break;
      std::memcpy(out + used, bytes.data(), bytes.size());
      used += bytes.size();
      if (static_cast<wire::Type>(bytes[offsetof(wire::Header, type)]) != wire::Type::fin) {
        ++p.packets_sent;
        ++packed;
      }
      if (++p.control_next == p.control.size()) {
        p.control.clear();
        p.control_next = 0;
      }
      continue;
    }
    if (p.queued_next == p.queued.size()) break;
    std::byte* packet = p.queued[p.queued_next];
    wire::Header h;
    std::memcpy(&h, packet, sizeof h);
    if (used + wire::packed_size(h) > frame_bytes_) break;
    if (h.type == wire::Type::get) {
      // Expose the destination only now: the device belongs to the lock holder, not to the poster.
      const Transfer& rec = slots_[h.a];
      net::RemoteRegion named;
      if (device_.try_expose(dest, std::span(rec.destination, rec.size), get_expose_flag | h.a, named) ==
          Post::retry) {
        bump(counters_.device_retries);
        break;
      }
      std::memcpy(packet + sizeof h, &named, sizeof named);
    }
    std::memcpy(out + used, packet, sizeof h + h.payload);
    used += wire::packed_size(h);
    count_packed(h);
    pool_.release(packet);
    unqueued(dest);
    ++p.packets_sent;
    ++packed;
    if (++p.queued_next == p.queued.size()) {
      p.queued.clear();
      p.queued_next = 0;
    }
  }
  bump(counters_.packets_sent, packed);
  return used;
}

void Outgoing::send_control(ProgressToken token, rank_t dest, const wire::Header& h,
                            std::span<const std::byte> payload) {
  std::vector<std::byte> bytes(sizeof h + wire::padded(payload.size()));
  wire::Header header = h;
  header.payload = static_cast<std::uint32_t>(payload.size());
  std::memcpy(bytes.data(), &header, sizeof header);
  if (!payload.empty()) std::memcpy(bytes.data() + sizeof header, payload.data(), payload.size());
  Held& held = held_.get(token);
  Packing& p = packing(held, dest);
  p.control.push_back(std::move(bytes));
  list_for_flush(held, dest, p);
}

bool Outgoing::holds_packets(ProgressToken token) const {
  // Whatever a Packing holds keeps it listed until it is sent.
  return !held_.get(token).flushing.empty() || !queue_.empty_approx();
}

bool Outgoing::control_sent(ProgressToken token, rank_t dest) const {
  const std::unique_ptr<Packing>& p = held_.get(token).packings[static_cast<std::size_t>(dest)];
  return !p || (p->control_next == p->control.size() && p->kept.empty());
}

std::uint64_t Outgoing::packets_sent(ProgressToken token, rank_t dest) const {
  const std::unique_ptr<Packing>& p = held_.get(token).packings[static_cast<std::size_t>(dest)];
  return p ? p->packets_sent : 0;
}

std::uint64_t Outgoing::return_queued(Held& held) {
  take_queued(held);
  std::uint64_t returned = 0;
  for (const rank_t dest : held.flushing) {
    Packing& p = *held.packings[static_cast<std::size_t>(dest)];
    for (std::size_t i = p.queued_next; i < p.queued.size(); ++i, ++returned) {
      pool_.release(p.queued[i]);
      unqueued(dest);
    }
    p.queued.clear();
    p.queued_next = 0;
  }
  return returned;
}

void Outgoing::drop_unsent(ProgressToken token) {
  Held& held = held_.get(token);
  bump(counters_.dropped, return_queued(held));
  for (const rank_t dest : held.flushing) {
    Packing& p = *held.packings[static_cast<std::size_t>(dest)];
    if (!p.kept.empty()) bump(counters_.dropped);
    p.kept.clear();
  }
}

void Outgoing::release_queued(ProgressToken token) { return_queued(held_.get(token)); }

}  // namespace courier::comm
