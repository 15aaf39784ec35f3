#pragma once
// detail::Stage: one compute thread's coalescing buffers in a mailbox that several threads use
// (Config::threads > 1). A thread appends its records here without a lock, one byte array per
// destination rank, and hands them to the rank's mailbox (Untyped) in one locked step when they
// reach its share of the capacity. Owned and used by one thread only.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "courier/core/error.hpp"
#include "courier/core/rank.hpp"
#include "courier/mailbox/untyped.hpp"

namespace courier::mailbox::detail {

class Stage {
 public:
  // fixed_payload as Untyped's: 0 means each record carries its size.
  Stage(rank_t ranks, std::size_t fixed_payload) : per_dest_(static_cast<std::size_t>(ranks)), fixed_(fixed_payload) {}

  void add(rank_t dest, const std::byte* payload, std::size_t bytes) {
    std::vector<std::byte>& buffer = per_dest_[static_cast<std::size_t>(dest)];
    if (buffer.empty()) touched_.push_back(dest);
    if (fixed_ == 0) {
      if (bytes > 0xffffffffu) too_large(bytes);
      const auto size32 = static_cast<std::uint32_t>(bytes);
      const auto* size_bytes = reinterpret_cast<const std::byte*>(&size32);
      buffer.insert(buffer.end(), size_bytes, size_bytes + sizeof size32);
      bytes_ += sizeof size32;
    }
    if (bytes > 0) buffer.insert(buffer.end(), payload, payload + bytes);  // an empty payload may be null
    bytes_ += bytes;
  }

  std::size_t bytes() const { return bytes_; }

  // Every staged record to `untyped`, in the order added per destination; the caller holds the
  // rank's lock (SharedUse). N: the payload size when known at compile time, as Untyped::send.
  template <std::size_t N>
  void hand_over(Untyped& untyped) {
    for (const rank_t dest : touched_) {
      std::vector<std::byte>& buffer = per_dest_[static_cast<std::size_t>(dest)];
      if constexpr (N > 0) {
        untyped.send_run<N>(dest, buffer.data(), buffer.size());
        buffer.clear();
        continue;
      }
      const std::byte* at = buffer.data();
      const std::byte* const end = at + buffer.size();
      while (at < end) {
        std::size_t payload = fixed_;
        if (fixed_ == 0) {
          std::uint32_t size32;
          std::memcpy(&size32, at, sizeof size32);
          at += sizeof size32;
          payload = size32;
        }
        untyped.send<N>(dest, at, payload);
        at += payload;
      }
      buffer.clear();  // its allocation stays, for the next records
    }
    touched_.clear();
    bytes_ = 0;
  }

 private:
  [[noreturn]] static void too_large(std::size_t bytes) {
    throw InputError("mailbox: a message of " + std::to_string(bytes) +
                     " bytes exceeds the 4 GiB a record can carry; split it");
  }

  std::vector<std::vector<std::byte>> per_dest_;  // [destination rank]
  std::vector<rank_t> touched_;                   // destinations whose arrays hold records
  std::size_t fixed_;
  std::size_t bytes_ = 0;
};

}  // namespace courier::mailbox::detail
