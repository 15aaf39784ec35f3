#pragma once
// LocalDevice: one rank's view of a LocalFabric (see courier/net/local.hpp).
#include <cstdint>
#include <memory>
#include <random>
#include <vector>

#include "courier/net/device.hpp"
#include "courier/net/local.hpp"
#include "inbox.hpp"

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

  bool chance(double probability);
  void check_rank(rank_t r, const char* what) const {
    if (r < 0 || r >= ranks_) [[unlikely]] rank_error(r, what);
  }
  [[noreturn]] void rank_error(rank_t r, const char* what) const;
  // Reads one cell: use(source, frame) for a frame, notice(value) for a put notice; the frame's
  // buffer and count go back to its sender.
  template <class Frame, class Notice>
  bool take_one(Frame&& frame, Notice&& notice);
  std::size_t release_held(EventSink& sink);
  std::size_t progress_with_faults(EventSink& sink);

  std::shared_ptr<LocalFabric::State> state_;
  const rank_t rank_;
  const rank_t ranks_;
  const std::size_t frame_bytes_;
  const bool faults_;
  Inbox& inbox_;     // this rank's
  FramePool& pool_;  // this rank's
  // Fault injection only:
  std::mt19937_64 random_;
  std::vector<Held> held_;
  std::vector<std::uint64_t> puts_to_report_;  // puts answered `posted`, reported next progress
};

}  // namespace courier::net
