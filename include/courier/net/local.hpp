#pragma once
// The `local` transport: N ranks as threads of one process, so that the runtime and everything
// above it run and are tested without MPI. Memory per rank does not depend on the rank count:
// each rank has one inbox (a bounded multi-producer ring of cache-line cells, fed by every peer:
// a small frame travels inside its cell, a larger one in a buffer of its sender's frame pool,
// a put notice as a word) and one pool of `pool_frames` frame buffers, touched only as they are
// used. The only per-peer state is the runtime's above. A put is a memcpy into the region the
// target exposed followed by a notice, so the target's own progress() reports on_put_arrived.
// A full inbox, or a sender with `pool_frames` large frames in flight, makes try_send / try_put
// answer retry.
//
//   net::LocalFabric fabric(4);                         // a world of 4 ranks
//   std::unique_ptr<net::Device> d = fabric.device(2);  // rank 2's device, once per rank
//
// For tests, `faults` delays and reorders frames and put notices at random, answers retry at
// random, and reports some puts as `posted` (finished later), exercising every path above.
// Chaos mode (LocalOptions::chaos, or COURIER_CHAOS=SEED in the environment of a fabric made with
// default faults) adds starvation: a pool of 2 frames and an inbox of 4 cells per rank.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>

#include "courier/net/device.hpp"

namespace courier::net {

struct LocalOptions {
  std::size_t frame_bytes = 16 * 1024;  // max_frame_bytes() of every device
  std::size_t pool_frames = 64;         // frames above 48 bytes one rank has in flight at most
                                        // (its frame pool: buffers of frame_bytes, touched as used)
  std::size_t inbox_cells = 1024;       // frames and put notices waiting for one rank, from all
                                        // peers together (64 bytes each)
  struct Faults {
    bool enabled = false;
    std::uint64_t seed = 1;
    double retry_probability = 0.05;  // try_send / try_put answer retry without doing anything
    double hold_probability = 0.5;    // a received frame or notice is held back one more progress
    std::size_t max_held = 8;         // frames held back per receiving rank at most
  } faults;

  // Faults on, with starvation: delays, reorders, spurious retries, a pool of 2 frames and an
  // inbox of 4 cells per rank, all drawn from `seed`.
  static LocalOptions chaos(std::uint64_t seed);
  // The seed COURIER_CHAOS names, if it is set (InputError when it is not a number).
  static std::optional<std::uint64_t> chaos_from_environment();
  // Bytes a fabric of `ranks` ranks may touch at most (inboxes, frame pools, bookkeeping).
  static std::uint64_t estimate_bytes(std::int64_t ranks, const LocalOptions& options);
};

class LocalFabric {
 public:
  // With default (disabled) faults and COURIER_CHAOS=SEED set, the fabric runs in chaos mode and
  // says so on stderr once, with the seed.
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
