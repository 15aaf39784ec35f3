#pragma once
// A Channel between ranks that are threads of this test: a test double, so the substrate's logic
// is tested apart from the real layers. Messages carry their phase number; one that arrives early
// waits until its phase begins.
#include <condition_variable>
#include <deque>
#include <mutex>

#include "courier/sync/channel.hpp"

namespace courier::sync::test_support {

class LoopbackHub {
 public:
  explicit LoopbackHub(rank_t ranks) : inboxes_(static_cast<std::size_t>(ranks)), ranks_(ranks) {}
  rank_t ranks() const { return ranks_; }

  void post(rank_t to, rank_t from, std::uint64_t phase, Bytes bytes) {
    std::lock_guard lock(mutex_);
    inboxes_[to].push_back({from, phase, std::move(bytes)});
  }
  // A message for `to` of `phase`, if one is there.
  std::optional<Received> take(rank_t to, std::uint64_t phase) {
    std::lock_guard lock(mutex_);
    auto& inbox = inboxes_[to];
    for (auto it = inbox.begin(); it != inbox.end(); ++it)
      if (it->phase == phase) {
        Received r{it->from, std::move(it->bytes)};
        inbox.erase(it);
        return r;
      }
    return std::nullopt;
  }
  // All ranks contribute; all get the sum.
  std::uint64_t sum(std::uint64_t value) {
    std::unique_lock lock(mutex_);
    const std::uint64_t generation = generation_;
    accumulated_ += value;
    if (++arrived_ == ranks_) {
      result_ = accumulated_;
      accumulated_ = 0;
      arrived_ = 0;
      ++generation_;
      done_.notify_all();
      return result_;
    }
    done_.wait(lock, [&] { return generation_ != generation; });
    return result_;
  }

 private:
  struct Letter {
    rank_t from;
    std::uint64_t phase;
    Bytes bytes;
  };
  std::mutex mutex_;
  std::condition_variable done_;
  std::vector<std::deque<Letter>> inboxes_;
  rank_t ranks_;
  rank_t arrived_ = 0;
  std::uint64_t accumulated_ = 0, result_ = 0, generation_ = 0;
};

class LoopbackChannel final : public Channel {
 public:
  LoopbackChannel(LoopbackHub& hub, rank_t rank) : hub_(hub), rank_(rank) {}
  rank_t rank() const override { return rank_; }
  rank_t ranks() const override { return hub_.ranks(); }
  std::string name() const override { return "loopback"; }
  void reserve(std::span<const std::size_t>, std::span<const std::size_t>) override {}
  void begin_phase(std::span<const rank_t> to, std::span<const rank_t>) override {
    ++phase_;
    stats_.messages_sent += to.size();
  }
  Bytes acquire(std::size_t bytes) override {
    Bytes b;
    b.reserve(bytes);
    return b;
  }
  void send(rank_t peer, Bytes message) override { hub_.post(peer, rank_, phase_, std::move(message)); }
  std::optional<Received> try_receive() override { return hub_.take(rank_, phase_); }
  void release(Bytes) override {}
  void end_phase() override { ++stats_.phases; }
  std::uint64_t sum_all(std::uint64_t value) override { return hub_.sum(value); }
  double max_all(double value) override { return value; }
  ChannelStats stats() const override { return stats_; }

 private:
  LoopbackHub& hub_;
  rank_t rank_;
  std::uint64_t phase_ = 0;
  ChannelStats stats_;
};

}  // namespace courier::sync::test_support
