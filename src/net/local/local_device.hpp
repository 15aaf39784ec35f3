#pragma once
// LocalDevice: one rank's view of a LocalFabric (see courier/net/local.hpp).
#include <cstdint>
#include <memory>
#include <random>
#include <vector>

#include "courier/core/spsc_ring.hpp"
#include "courier/net/device.hpp"
#include "courier/net/local.hpp"
#include "frame_ring.hpp"

namespace courier::net {

// Aligned to a cache line: the ranks' devices are allocated side by side, and each writes its
// own fields on every progress round.
class alignas(cache_line_bytes) LocalDevice final : public Device {
 public:
  LocalDevice(std::shared_ptr<LocalFabric::State> state, rank_t rank);

  rank_t rank() const override { return rank_; }
  rank_t ranks() const override;
  std::string name() const override { return "local"; }
  std::size_t max_frame_bytes() const override;

  Post try_send(rank_t dest, std::span<const std::byte> frame) override;
  Post try_expose(rank_t origin, std::span<std::byte> region, std::uint64_t context,
                  RemoteRegion& named) override;
  Post try_put(rank_t target, const RemoteRegion& region, std::span<const std::byte> data,
               std::uint64_t context) override;
  std::size_t progress(EventSink& sink) override;
  void barrier() override;

 private:
  struct Held {
    rank_t source;
    bool is_notice;
    std::uint64_t notice;
    std::vector<std::byte> frame;
  };
  using NoticeRing = SpscRing<std::uint64_t>;

  bool chance(double probability);
  void check_rank(rank_t r, const char* what) const {
    if (r < 0 || r >= ranks_) [[unlikely]] rank_error(r, what);
  }
  [[noreturn]] void rank_error(rank_t r, const char* what) const;
  std::size_t release_held(EventSink& sink);
  std::size_t progress_with_faults(EventSink& sink);

  std::shared_ptr<LocalFabric::State> state_;
  const rank_t rank_;
  const rank_t ranks_;
  const std::size_t frame_bytes_;
  const bool faults_;
  // This rank's ends of the rings, indexed by the peer: looked up once, not per call.
  std::vector<FrameRing*> frames_out_, frames_in_;
  std::vector<NoticeRing*> notices_out_, notices_in_;
  rank_t next_source_ = 0;  // round-robin start, so no source starves the others
  // Fault injection only:
  std::mt19937_64 random_;
  std::vector<Held> held_;
  std::vector<std::uint64_t> puts_to_report_;  // puts answered `posted`, reported next progress
};

}  // namespace courier::net
