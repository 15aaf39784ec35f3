#pragma once
// The `local` transport: N ranks as threads of one process, so that the runtime and everything
// above it run and are tested without MPI. Each ordered pair of ranks has a lock-free SPSC ring
// of frame slots that hold the frames' bytes in place (the sender's progress thread pushes, the
// receiver's pops; a small frame and its turn share one cache line) and a ring of put notices. A put is a memcpy into the region the target exposed followed by a notice, so the
// target's own progress() reports on_put_arrived. Memory is bounded: ring slots are reused in
// place, and a full ring makes try_send / try_put answer retry.
//
//   net::LocalFabric fabric(4);                         // a world of 4 ranks
//   std::unique_ptr<net::Device> d = fabric.device(2);  // rank 2's device, once per rank
//
// For tests, `faults` delays and reorders frames and put notices at random, answers retry at
// random, and reports some puts as `posted` (finished later), exercising every path above.
#include <cstddef>
#include <cstdint>
#include <memory>

#include "courier/net/device.hpp"

namespace courier::net {

struct LocalOptions {
  std::size_t frame_bytes = 16 * 1024;  // max_frame_bytes() of every device
  std::size_t ring_frames = 32;         // frames in flight per ordered pair of ranks (each pair
                                        // reserves ring_frames x frame_bytes)
  struct Faults {
    bool enabled = false;
    std::uint64_t seed = 1;
    double retry_probability = 0.05;  // try_send / try_put answer retry without doing anything
    double hold_probability = 0.5;    // a received frame or notice is held back one more progress
    std::size_t max_held = 8;         // frames held back per receiving rank at most
  } faults;
};

class LocalFabric {
 public:
  explicit LocalFabric(rank_t ranks, LocalOptions options = {});
  ~LocalFabric();
  LocalFabric(const LocalFabric&) = delete;
  LocalFabric& operator=(const LocalFabric&) = delete;

  rank_t ranks() const;
  const LocalOptions& options() const;
  // Rank `rank`'s device; each rank's device may be taken once. Devices may outlive the fabric.
  std::unique_ptr<Device> device(rank_t rank);

  struct State;

 private:
  std::shared_ptr<State> state_;
};

}  // namespace courier::net
