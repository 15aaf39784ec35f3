// Packing: the packets queued for one destination (control packets first, then the posters'
// packets) go into one frame of up to max_frame_bytes, handed to the transport in one try_send.
// This is what makes many small messages cheaper than one transport message each. When nothing
// is queued for a destination and nobody is progressing, a poster packs its eager packet straight
// into the frame and hands it to the transport itself: no pool packet, no queue, no hand-off.
#include <bit>
#include <cstddef>
#include <cstring>

#include "engine.hpp"

namespace courier::comm {

void Engine::mark_dirty(rank_t dest) {
  // Read-modify-writes only, so that the push into the queue is ordered before the flag without
  // fences: whoever clears the flag next (acquire, flush_listed) sees the push. The first poster
  // to raise the flag since the engine last cleared it also sets dest's bit in the bitmap.
  Peer& p = *peers[static_cast<std::size_t>(dest)];
  if (p.queued.exchange(true, std::memory_order_acq_rel)) return;
  const std::uint64_t bit = std::uint64_t{1} << (static_cast<std::size_t>(dest) % 64);
  dirty[static_cast<std::size_t>(dest) / 64].fetch_or(bit, std::memory_order_release);
}

void Engine::list_for_flush(rank_t dest) {
  Peer& p = *peers[static_cast<std::size_t>(dest)];
  if (p.listed) return;
  p.listed = true;
  flushing.push_back(dest);
}

std::size_t Engine::flush_listed() {
  for (std::size_t w = 0; w < dirty.size(); ++w) {
    if (dirty[w].load(std::memory_order_relaxed) == 0) continue;
    std::uint64_t bits = dirty[w].exchange(0, std::memory_order_acquire);
    while (bits != 0) {
      const auto dest = static_cast<rank_t>(w * 64 + static_cast<std::size_t>(std::countr_zero(bits)));
      bits &= bits - 1;
      // Cleared before the queue is read: a packet pushed after this raises the flag again.
      peers[static_cast<std::size_t>(dest)]->queued.exchange(false, std::memory_order_acq_rel);
      list_for_flush(dest);
    }
  }
  if (flushing.empty()) return 0;
  const std::size_t frames_before = counters.frames_sent.load(std::memory_order_relaxed);
  for (std::size_t i = 0; i < flushing.size();) {
    const rank_t dest = flushing[i];
    if (flush(dest)) {
      peers[static_cast<std::size_t>(dest)]->listed = false;
      flushing[i] = flushing.back();
      flushing.pop_back();
    } else {
      ++i;
    }
  }
  return counters.frames_sent.load(std::memory_order_relaxed) - frames_before;
}

bool Engine::send_frame(rank_t dest, std::size_t used) {
  Peer& p = *peers[static_cast<std::size_t>(dest)];
  if (device->try_send(dest, std::span(p.frame).first(used)) == Post::retry) {
    bump(counters.device_retries);
    p.frame_used = used;  // kept packed; the next flush offers it again
    return false;
  }
  bump(counters.frames_sent);
  bump(counters.frame_bytes_sent, used);
  p.frame_used = 0;
  return true;
}

bool Engine::flush(rank_t dest) {
  Peer& p = *peers[static_cast<std::size_t>(dest)];
  for (int frames = 0; frames < 4; ++frames) {
    if (p.frame_used == 0) fill_frame(dest);
    if (p.frame_used == 0) return p.carry == nullptr;  // nothing left, unless a GET waits to be exposed
    if (!send_frame(dest, p.frame_used)) return false;
  }
  return false;  // more may wait; give the other destinations their turn first
}

void Engine::count_packed(const wire::Header& h) {
  switch (h.type) {
    case wire::Type::egr:
      bump(counters.messages_sent);
      bump(counters.eager_sent);
      bump(counters.bytes_sent, h.payload);
      break;
    case wire::Type::rts:
      bump(counters.messages_sent);
      bump(counters.rendezvous_sent);
      bump(counters.bytes_sent, h.b);
      break;
    case wire::Type::put_egr:
    case wire::Type::put_rts:
      bump(counters.puts);
      break;
    case wire::Type::get:
      bump(counters.gets);
      break;
    default:
      break;  // the engine's own control packets
  }
}

bool Engine::try_send_direct(rank_t dest, const wire::Header& h, std::span<const std::byte> payload) {
  Peer& p = *peers[static_cast<std::size_t>(dest)];
  if (!p.outgoing.empty_approx()) return false;  // keep this thread's earlier packets first
  auto held = progress_lock.try_hold();
  if (!held) return false;
  if (!p.nothing_held() || p.direct_round == rounds) return false;
  p.direct_round = rounds;
  const std::size_t used = wire::packed_size(h);
  std::byte* out = p.frame.data();
  std::memcpy(out, &h, sizeof h);
  if (!payload.empty()) std::memcpy(out + sizeof h, payload.data(), payload.size());
  ++p.packets_sent;
  bump(counters.packets_sent);
  count_packed(h);
  // Accepted either way: a frame the transport refuses stays packed for the next flush.
  if (!send_frame(dest, used)) list_for_flush(dest);
  return true;
}

void Engine::fill_frame(rank_t dest) {
  Peer& p = *peers[static_cast<std::size_t>(dest)];
  std::byte* out = p.frame.data();
  std::size_t used = 0;
  std::size_t packed = 0;
  while (true) {
    if (!p.control.empty()) {
      const std::vector<std::byte>& bytes = p.control.front();
      if (used + bytes.size() > frame_bytes) break;
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
    if (packet == nullptr && !p.outgoing.try_pop(packet)) break;
    p.carry = nullptr;
    wire::Header h;
    std::memcpy(&h, packet, sizeof h);
    if (used + wire::packed_size(h) > frame_bytes) {
      p.carry = packet;
      break;
    }
    if (h.type == wire::Type::get) {
      // Expose the destination only now: the device belongs to the engine, not to the poster.
      const Transfer& rec = slots[h.a];
      net::RemoteRegion named;
      if (device->try_expose(dest, std::span(rec.destination, rec.size), get_expose_flag | h.a, named) ==
          Post::retry) {
        bump(counters.device_retries);
        p.carry = packet;
        break;
      }
      std::memcpy(packet + sizeof h, &named, sizeof named);
    }
    std::memcpy(out + used, packet, sizeof h + h.payload);
    used += wire::packed_size(h);
    count_packed(h);
    pool.release(packet);
    ++p.packets_sent;
    ++packed;
  }
  bump(counters.packets_sent, packed);
  p.frame_used = used;
}

void Engine::send_control(rank_t dest, const wire::Header& h, std::span<const std::byte> payload) {
  std::vector<std::byte> bytes(sizeof h + wire::padded(payload.size()));
  wire::Header header = h;
  header.payload = static_cast<std::uint32_t>(payload.size());
  std::memcpy(bytes.data(), &header, sizeof header);
  if (!payload.empty()) std::memcpy(bytes.data() + sizeof header, payload.data(), payload.size());
  peers[static_cast<std::size_t>(dest)]->control.push_back(std::move(bytes));
  list_for_flush(dest);
}

}  // namespace courier::comm
