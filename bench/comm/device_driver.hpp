#pragma once
// A net::Device shared by a rank's benchmark threads: one mutex serialises the device (it is
// driven by one thread at a time), and the sink sorts what arrives into per-stream counters. This
// is the raw transport plus the least machinery needed to use it from several threads; the comm
// runtime is the real answer to that and gets its own rows once it exists.
#include <array>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <deque>
#include <memory>
#include <mutex>
#include <span>

#include "courier/net/device.hpp"
#include "variant.hpp"

namespace courier::bench {

// Byte 0 of every frame says what it is, byte 1 which stream (thread) it belongs to.
enum class FrameKind : std::uint8_t { data = 0, ack = 1, ready_to_receive = 2 };
constexpr int max_streams = 16;

class DeviceDriver : public net::EventSink {
 public:
  explicit DeviceDriver(std::unique_ptr<net::Device> device) : device_(std::move(device)) {}

  net::Device& device() { return *device_; }

  // Sends a frame, progressing while the device answers retry.
  void send(int dest, std::span<const std::byte> frame) {
    Backoff backoff;
    for (;;) {
      {
        std::lock_guard lock(mutex_);
        if (device_->try_send(dest, frame) == net::Post::done) return;
        device_->progress(*this);
      }
      backoff.idle();
    }
  }

  void send_kind(int dest, FrameKind kind, int stream, std::span<std::byte> frame) {
    frame[0] = static_cast<std::byte>(kind);
    frame[1] = static_cast<std::byte>(stream);
    send(dest, frame);
  }

  // Exposes `region` to `origin` and tells it so with a ready-to-receive frame.
  void expose_and_announce(int origin, std::span<std::byte> region) {
    std::array<std::byte, 2 + sizeof(net::RemoteRegion)> frame{};
    net::RemoteRegion named;
    Backoff backoff;
    for (;;) {
      {
        std::lock_guard lock(mutex_);
        if (device_->try_expose(origin, region, 0, named) != net::Post::retry) break;
        device_->progress(*this);
      }
      backoff.idle();
    }
    std::memcpy(frame.data() + 2, &named, sizeof named);
    send_kind(origin, FrameKind::ready_to_receive, 0, frame);
  }

  void put(int target, const net::RemoteRegion& region, std::span<const std::byte> data) {
    Backoff backoff;
    for (;;) {
      {
        std::lock_guard lock(mutex_);
        net::Post answer = device_->try_put(target, region, data, 0);
        if (answer == net::Post::done) {
          puts_sent.fetch_add(1);
          return;
        }
        if (answer == net::Post::posted) return;
        device_->progress(*this);
      }
      backoff.idle();
    }
  }

  // Progresses unless another thread is doing so right now.
  void poll() {
    std::unique_lock lock(mutex_, std::try_to_lock);
    if (lock.owns_lock()) device_->progress(*this);
  }

  template <class Done>
  void wait_until(Done done) {
    Backoff backoff;
    while (!done()) {
      poll();
      backoff.idle();
    }
  }

  // Pops the oldest region the peer announced; call only while one is there.
  net::RemoteRegion take_announced() {
    std::lock_guard lock(mutex_);
    net::RemoteRegion region = announced_.front();
    announced_.pop_front();
    return region;
  }
  std::size_t announced() {
    std::lock_guard lock(mutex_);
    return announced_.size();
  }

  std::array<std::atomic<std::uint64_t>, max_streams> data{};
  std::array<std::atomic<std::uint64_t>, max_streams> acks{};
  std::atomic<std::uint64_t> puts_sent{0};
  std::atomic<std::uint64_t> puts_arrived{0};

 private:
  // Called with mutex_ held, from progress().
  void on_frame(rank_t, std::span<const std::byte> frame) override {
    auto stream = static_cast<std::size_t>(frame[1]);
    switch (static_cast<FrameKind>(frame[0])) {
      case FrameKind::data: data[stream].fetch_add(1, std::memory_order_release); break;
      case FrameKind::ack: acks[stream].fetch_add(1, std::memory_order_release); break;
      case FrameKind::ready_to_receive: {
        net::RemoteRegion region;
        std::memcpy(&region, frame.data() + 2, sizeof region);
        announced_.push_back(region);
        break;
      }
    }
  }
  void on_put_sent(std::uint64_t) override { puts_sent.fetch_add(1, std::memory_order_release); }
  void on_put_arrived(std::uint64_t) override {
    puts_arrived.fetch_add(1, std::memory_order_release);
  }

  std::unique_ptr<net::Device> device_;
  std::mutex mutex_;
  std::deque<net::RemoteRegion> announced_;
};

}  // namespace courier::bench
