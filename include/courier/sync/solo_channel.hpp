#pragma once
// SoloChannel: the Channel of a run with one rank, where there is nobody to talk to. Collectives
// return their input; a phase has no peers. Lets the engine run on one rank without MPI.
#include "courier/core/error.hpp"
#include "courier/sync/channel.hpp"

namespace courier::sync {

class SoloChannel final : public Channel {
 public:
  rank_t rank() const override { return 0; }
  rank_t ranks() const override { return 1; }
  std::string name() const override { return "solo"; }
  void reserve(std::span<const std::size_t>, std::span<const std::size_t>) override {}
  void begin_phase(std::span<const rank_t> to, std::span<const rank_t> from) override {
    if (!to.empty() || !from.empty()) throw Error("solo channel: a phase with peers on a single rank");
    ++stats_.phases;
  }
  Bytes acquire(std::size_t bytes) override {
    Bytes b;
    b.reserve(bytes);
    return b;
  }
  void send(rank_t peer, Bytes) override {
    throw Error("solo channel: send to rank " + std::to_string(peer) + " on a single rank");
  }
  std::optional<Received> try_receive() override { return std::nullopt; }
  void release(Bytes) override {}
  void end_phase() override {}
  std::uint64_t sum_all(std::uint64_t value) override { return value; }
  double sum_all(double value) override { return value; }
  double max_all(double value) override { return value; }
  ChannelStats stats() const override { return stats_; }

 private:
  ChannelStats stats_;
};

}  // namespace courier::sync
