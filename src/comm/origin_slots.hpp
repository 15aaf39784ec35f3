#pragma once
// OriginSlots: the origin side's rendezvous transfers in flight (large send, large put, get),
// one slot each, named on the wire by the slot's index. A poster takes a free slot and writes
// its Transfer before it enqueues the packet that names it; from then on the progress lock's
// holder reads it, and gives the slot back when the transfer completes. The free list is the
// hand-off, so the records need no lock.
#include <cstdint>
#include <vector>

#include "courier/comm/completion.hpp"
#include "courier/core/mpmc_queue.hpp"

namespace courier::comm {

struct Transfer {
  Op op = Op::send;
  endpoint_id endpoint = 0;       // the posting endpoint, where the origin completion goes
  endpoint_id peer_endpoint = 0;  // send: the destination endpoint
  rank_t peer = -1;
  tag_t tag = 0;
  const std::byte* source = nullptr;  // send/put
  std::byte* destination = nullptr;   // get
  std::size_t size = 0;
  void* context = nullptr;
};

// A put-arrived context with this bit names the origin slot of a get whose destination was
// filled (the target answers a get with a put into the exposed destination).
inline constexpr std::uint64_t get_expose_flag = std::uint64_t{1} << 63;

class OriginSlots {
 public:
  explicit OriginSlots(std::size_t count) : transfers_(count), free_(count) {
    for (std::uint32_t i = 0; i < count; ++i) free_.try_push(i);
  }

  // Posting side: a free slot holding `transfer`, or false when none is free.
  bool try_take(const Transfer& transfer, std::uint32_t& slot) {
    if (!free_.try_pop(slot)) return false;
    transfers_[slot] = transfer;
    return true;
  }
  void give_back(std::uint32_t slot) { free_.try_push(slot); }  // cannot fail: room for every slot

  const Transfer& at(std::uint64_t slot) const { return transfers_.at(slot); }
  const Transfer& operator[](std::uint64_t slot) const { return transfers_[slot]; }
  bool busy() const { return free_.size_approx() != transfers_.size(); }

 private:
  std::vector<Transfer> transfers_;
  MpmcQueue<std::uint32_t> free_;
};

}  // namespace courier::comm
