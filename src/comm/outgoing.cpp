#include "outgoing.hpp"

#include <bit>
#include <cstring>

namespace courier::comm {

Outgoing::Outgoing(net::Device& device, PacketPool& pool, ProgressLock& lock, const OriginSlots& slots,
                   rank_t ranks, std::size_t queue_packets)
    : device_(device),
      pool_(pool),
      lock_(lock),
      slots_(slots),
      frame_bytes_(device.max_frame_bytes()),
      dirty_((static_cast<std::size_t>(ranks) + 63) / 64),
      held_(ranks) {
  for (rank_t r = 0; r < ranks; ++r) {
    destinations_.push_back(std::make_unique<Destination>(queue_packets, frame_bytes_));
  }
}

bool Outgoing::enqueue(rank_t dest, wire::Header h, std::span<const std::byte> payload, std::size_t payload_bytes) {
  std::byte* packet = pool_.try_acquire();
  if (packet == nullptr) return false;
  h.payload = static_cast<std::uint32_t>(payload_bytes);
  std::memcpy(packet, &h, sizeof h);
  if (!payload.empty()) std::memcpy(packet + sizeof h, payload.data(), payload.size());
  if (!destination(dest).packets.try_push(packet)) {
    pool_.release(packet);
    return false;
  }
  mark_dirty(dest);
  return true;
}

void Outgoing::mark_dirty(rank_t dest) {
  // Read-modify-writes only, so that the push into the queue is ordered before the flag without
  // fences: whoever clears the flag next (acquire, flush_listed) sees the push. The first poster
  // to raise the flag since the lock holder last cleared it also sets dest's bit in the bitmap.
  if (destination(dest).queued.exchange(true, std::memory_order_acq_rel)) return;
  const std::uint64_t bit = std::uint64_t{1} << (static_cast<std::size_t>(dest) % 64);
  dirty_[static_cast<std::size_t>(dest) / 64].fetch_or(bit, std::memory_order_release);
}

bool Outgoing::try_send_direct(rank_t dest, const wire::Header& h, std::span<const std::byte> payload) {
  Destination& d = destination(dest);
  if (!d.packets.empty_approx()) return false;  // keep this thread's earlier packets first
  ProgressLock::Guard lock = lock_.try_hold();
  if (!lock) return false;
  Held& held = held_.get(lock.token());
  Packing& p = d.packing.get(lock.token());
  if (!p.nothing_held() || p.direct_round == held.round) return false;
  p.direct_round = held.round;
  const std::size_t used = wire::packed_size(h);
  std::byte* out = p.frame.data();
  std::memcpy(out, &h, sizeof h);
  if (!payload.empty()) std::memcpy(out + sizeof h, payload.data(), payload.size());
  ++p.packets_sent;
  bump(counters_.packets_sent);
  count_packed(h);
  // Accepted either way: a frame the transport refuses stays packed for the next flush.
  if (!send_frame(dest, p, used)) list_for_flush(held, dest, p);
  return true;
}

void Outgoing::list_for_flush(Held& held, rank_t dest, Packing& p) {
  if (p.listed) return;
  p.listed = true;
  held.flushing.push_back(dest);
}

std::size_t Outgoing::flush_listed(ProgressToken token) {
  Held& held = held_.get(token);
  for (std::size_t w = 0; w < dirty_.size(); ++w) {
    if (dirty_[w].load(std::memory_order_relaxed) == 0) continue;
    std::uint64_t bits = dirty_[w].exchange(0, std::memory_order_acquire);
    while (bits != 0) {
      const auto dest = static_cast<rank_t>(w * 64 + static_cast<std::size_t>(std::countr_zero(bits)));
      bits &= bits - 1;
      // Cleared before the queue is read: a packet pushed after this raises the flag again.
      Destination& d = destination(dest);
      d.queued.exchange(false, std::memory_order_acq_rel);
      list_for_flush(held, dest, d.packing.get(token));
    }
  }
  if (held.flushing.empty()) return 0;
  const std::size_t frames_before = counters_.frames_sent.load(std::memory_order_relaxed);
  for (std::size_t i = 0; i < held.flushing.size();) {
    const rank_t dest = held.flushing[i];
    Destination& d = destination(dest);
    Packing& p = d.packing.get(token);
    if (flush(dest, d, p)) {
      p.listed = false;
      held.flushing[i] = held.flushing.back();
      held.flushing.pop_back();
    } else {
      ++i;
    }
  }
  return counters_.frames_sent.load(std::memory_order_relaxed) - frames_before;
}

bool Outgoing::send_frame(rank_t dest, Packing& p, std::size_t used) {
  if (device_.try_send(dest, std::span(p.frame).first(used)) == Post::retry) {
    bump(counters_.device_retries);
    p.frame_used = used;  // kept packed; the next flush offers it again
    return false;
  }
  bump(counters_.frames_sent);
  bump(counters_.frame_bytes_sent, used);
  p.frame_used = 0;
  return true;
}

bool Outgoing::flush(rank_t dest, Destination& d, Packing& p) {
  for (int frames = 0; frames < 4; ++frames) {
    if (p.frame_used == 0) fill_frame(dest, d, p);
    if (p.frame_used == 0) return p.carry == nullptr;  // nothing left, unless a GET waits to be exposed
    if (!send_frame(dest, p, p.frame_used)) return false;
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

void Outgoing::fill_frame(rank_t dest, Destination& d, Packing& p) {
  std::byte* out = p.frame.data();
  std::size_t used = 0;
  std::size_t packed = 0;
  while (true) {
    if (!p.control.empty()) {
      const std::vector<std::byte>& bytes = p.control.front();
      if (used + bytes.size() > frame_bytes_) break;
      std::memcpy(out + used, bytes.data(), bytes.size());
      used += bytes.size();
      if (static_cast<wire::Type>(bytes[offsetof(wire::Header, type)]) != wire::Type::fin) {
        ++p.packets_sent;
        ++packed;
      }
      p.control.pop_front();
      continue;
    }
    std::byte* packet = p.carry;
    if (packet == nullptr && !d.packets.try_pop(packet)) break;
    p.carry = nullptr;
    wire::Header h;
    std::memcpy(&h, packet, sizeof h);
    if (used + wire::packed_size(h) > frame_bytes_) {
      p.carry = packet;
      break;
    }
    if (h.type == wire::Type::get) {
      // Expose the destination only now: the device belongs to the lock holder, not to the poster.
      const Transfer& rec = slots_[h.a];
      net::RemoteRegion named;
      if (device_.try_expose(dest, std::span(rec.destination, rec.size), get_expose_flag | h.a, named) ==
          Post::retry) {
        bump(counters_.device_retries);
        p.carry = packet;
        break;
      }
      std::memcpy(packet + sizeof h, &named, sizeof named);
    }
    std::memcpy(out + used, packet, sizeof h + h.payload);
    used += wire::packed_size(h);
    count_packed(h);
    pool_.release(packet);
    ++p.packets_sent;
    ++packed;
  }
  bump(counters_.packets_sent, packed);
  p.frame_used = used;
}

void Outgoing::send_control(ProgressToken token, rank_t dest, const wire::Header& h,
                            std::span<const std::byte> payload) {
  std::vector<std::byte> bytes(sizeof h + wire::padded(payload.size()));
  wire::Header header = h;
  header.payload = static_cast<std::uint32_t>(payload.size());
  std::memcpy(bytes.data(), &header, sizeof header);
  if (!payload.empty()) std::memcpy(bytes.data() + sizeof header, payload.data(), payload.size());
  Packing& p = destination(dest).packing.get(token);
  p.control.push_back(std::move(bytes));
  list_for_flush(held_.get(token), dest, p);
}

bool Outgoing::holds_packets(ProgressToken token) const {
  for (const auto& d : destinations_) {
    if (!d->packing.get(token).nothing_held() || !d->packets.empty_approx()) return true;
  }
  return false;
}

bool Outgoing::control_sent(ProgressToken token, rank_t dest) const {
  const Packing& p = destinations_[static_cast<std::size_t>(dest)]->packing.get(token);
  return p.control.empty() && p.frame_used == 0;
}

std::uint64_t Outgoing::packets_sent(ProgressToken token, rank_t dest) const {
  return destinations_[static_cast<std::size_t>(dest)]->packing.get(token).packets_sent;
}

void Outgoing::drop_unsent(ProgressToken token) {
  for (const auto& d : destinations_) {
    Packing& p = d->packing.get(token);
    std::byte* packet = p.carry;
    p.carry = nullptr;
    while (packet != nullptr || d->packets.try_pop(packet)) {
      pool_.release(packet);
      bump(counters_.dropped);
      packet = nullptr;
    }
    if (p.frame_used > 0) bump(counters_.dropped);
    p.frame_used = 0;
  }
}

void Outgoing::release_queued(ProgressToken token) {
  for (const auto& d : destinations_) {
    Packing& p = d->packing.get(token);
    std::byte* packet = p.carry;
    p.carry = nullptr;
    while (packet != nullptr || d->packets.try_pop(packet)) {
      pool_.release(packet);
      packet = nullptr;
    }
  }
}

}  // namespace courier::comm
