// Packing: the packets queued for one destination (control packets first, then the posters'
// packets) go into one frame of up to max_frame_bytes, handed to the transport in one try_send.
// This is what makes many small messages cheaper than one transport message each.
#include <cstddef>
#include <cstring>

#include "engine.hpp"

namespace courier::comm {

std::size_t Engine::flush(rank_t dest) {
  Peer& p = *peers[static_cast<std::size_t>(dest)];
  std::size_t frames = 0;
  for (; frames < 4; ++frames) {
    if (p.frame_used == 0) fill_frame(dest);
    if (p.frame_used == 0) break;
    if (device->try_send(dest, std::span(p.frame).first(p.frame_used)) == Post::retry) {
      bump(device_retries);
      break;
    }
    bump(frames_sent);
    bump(frame_bytes_sent, p.frame_used);
    p.frame_used = 0;
  }
  return frames;
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
      const Rendezvous& rec = slots[h.a];
      net::RemoteRegion named;
      if (device->try_expose(dest, std::span(rec.destination, rec.size), get_expose_flag | h.a, named) ==
          Post::retry) {
        bump(device_retries);
        p.carry = packet;
        break;
      }
      std::memcpy(packet + sizeof h, &named, sizeof named);
    }
    std::memcpy(out + used, packet, sizeof h + h.payload);
    used += wire::packed_size(h);
    pool.release(packet);
    ++p.packets_sent;
    ++packed;
  }
  bump(packets_sent, packed);
  p.frame_used = used;
}

void Engine::send_control(rank_t dest, const wire::Header& h, std::span<const std::byte> payload) {
  std::vector<std::byte> bytes(sizeof h + wire::padded(payload.size()));
  wire::Header header = h;
  header.payload = static_cast<std::uint32_t>(payload.size());
  std::memcpy(bytes.data(), &header, sizeof header);
  if (!payload.empty()) std::memcpy(bytes.data() + sizeof header, payload.data(), payload.size());
  peers[static_cast<std::size_t>(dest)]->control.push_back(std::move(bytes));
}

}  // namespace courier::comm
