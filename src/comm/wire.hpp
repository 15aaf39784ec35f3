#pragma once
// The runtime's packets on the wire (paper 000, III-D). A frame is a sequence of packets, each a
// Header followed by `payload` bytes padded to 8, so one transport frame carries many small
// messages to one destination. A pooled packet holds one Header and its payload contiguously.
#include <cstddef>
#include <cstdint>

namespace courier::comm::wire {

enum class Type : std::uint8_t {
  egr = 1,  // eager message: c = origin endpoint; payload is the data
  rts,      // ready to send: a = origin slot, b = size, c = origin endpoint
  rtr,      // ready to receive: a = origin slot; payload = net::RemoteRegion to put into
  put_egr,  // one-sided eager put: tag = window, a = offset; payload is the data
  put_rts,  // one-sided large put: tag = window, a = origin slot, b = size, c = offset
  get,      // one-sided get: tag = window, a = origin slot, b = size, c = offset;
            // payload = net::RemoteRegion (the origin's destination) to put into
  fin,      // shutdown: a = packets the sender sent to this rank before this one
};

struct Header {
  std::uint32_t payload = 0;   // bytes following the header
  Type type = Type::egr;
  std::uint8_t reserved = 0;
  std::uint16_t endpoint = 0;  // the endpoint it concerns: egr, rts: the destination's; others: the
                               // same id at both ends
  std::uint64_t tag = 0;
  std::uint64_t a = 0, b = 0, c = 0;
};
static_assert(sizeof(Header) == 40);

constexpr std::size_t padded(std::size_t bytes) { return (bytes + 7) & ~std::size_t{7}; }
constexpr std::size_t packed_size(const Header& h) { return sizeof(Header) + padded(h.payload); }

}  // namespace courier::comm::wire
