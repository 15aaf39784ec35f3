#pragma once
// A Channel between ranks that are threads of this test: a test double, so the substrate's logic
// is tested apart from the real channels. Messages carry their phase number; one that arrives early
// waits until its phase begins.
#include <condition_variable>
#include <deque>
#include <mutex>
#include <string>
#include <variant>
#include <algorithm>

#include "courier/core/error.hpp"
#include "courier/sync/channel.hpp"

namespace courier::test_support {

using sync::Bytes;
using sync::ChannelStats;
using sync::Received;

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
  // All ranks contribute; all get combine() of the contributions in rank order. Two slots, by
  // generation parity: a rank can be one collective ahead of a slow one, never two.
  template <class T, class Combine>
  T reduce(rank_t rank, T value, Combine combine) {
    std::unique_lock lock(mutex_);
    const std::uint64_t generation = generation_;
    auto& slot = contributions_[generation % 2];
    slot.resize(static_cast<std::size_t>(ranks_));
    slot[rank] = value;
    if (++arrived_ == ranks_) {
      arrived_ = 0;
      ++generation_;
      done_.notify_all();
    } else {
      done_.wait(lock, [&] { return generation_ != generation; });
    }
    T result = std::get<T>(slot[0]);
    for (rank_t r = 1; r < ranks_; ++r) result = combine(result, std::get<T>(slot[r]));
    return result;
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
  std::uint64_t generation_ = 0;
  std::vector<std::variant<std::uint64_t, double>> contributions_[2];
};

class LoopbackChannel final : public sync::Channel {
 public:
  // `message_limit` > 0 makes it a streaming channel (Channel::message_limit) that rejects
  // longer messages.
  LoopbackChannel(LoopbackHub& hub, rank_t rank, std::size_t message_limit = 0)
      : hub_(hub), rank_(rank), message_limit_(message_limit) {}
  std::size_t message_limit() const override { return message_limit_; }
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
  void send(rank_t peer, Bytes message) override {
    if (message_limit_ != 0 && message.size() > message_limit_)
      throw Error("loopback: a message of " + std::to_string(message.size()) + " bytes over the limit of " +
                  std::to_string(message_limit_));
    {
      std::lock_guard lock(sent_mutex_);
      sent_to_.push_back(peer);
    }
    hub_.post(peer, rank_, phase_, std::move(message));
  }
  // The peers of every message sent, in the order sent.
  std::vector<rank_t> sent_to() const {
    std::lock_guard lock(sent_mutex_);
    return sent_to_;
  }
  std::optional<Received> try_receive() override { return hub_.take(rank_, phase_); }
  void release(Bytes) override {}
  void end_phase() override { ++stats_.phases; }
  std::uint64_t sum_all(std::uint64_t value) override {
    return hub_.reduce(rank_, value, [](std::uint64_t a, std::uint64_t b) { return a + b; });
  }
  double sum_all(double value) override { return hub_.reduce(rank_, value, [](double a, double b) { return a + b; }); }
  double max_all(double value) override {
    return hub_.reduce(rank_, value, [](double a, double b) { return std::max(a, b); });
  }
  ChannelStats stats() const override { return stats_; }

 private:
  LoopbackHub& hub_;
  rank_t rank_;
  std::size_t message_limit_;
  std::uint64_t phase_ = 0;
  ChannelStats stats_;
  mutable std::mutex sent_mutex_;
  std::vector<rank_t> sent_to_;
};

}  // namespace courier::test_support
