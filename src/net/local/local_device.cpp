#include "local_device.hpp"

#include <cstring>
#include <string>

#include "courier/core/error.hpp"
#include "local_state.hpp"

namespace courier::net {

namespace {
constexpr std::size_t frames_per_source_per_progress = 4;
constexpr std::size_t notices_per_source_per_progress = 64;
}  // namespace

LocalDevice::LocalDevice(std::shared_ptr<LocalFabric::State> state, rank_t rank)
    : state_(std::move(state)), rank_(rank), ranks_(state_->ranks), frame_bytes_(state_->options.frame_bytes),
      faults_(state_->options.faults.enabled),
      random_(state_->options.faults.seed * 0x9e3779b97f4a7c15ULL + static_cast<std::uint64_t>(rank)) {
  for (rank_t peer = 0; peer < ranks_; ++peer) {
    frames_out_.push_back(&state_->frames(rank_, peer));
    frames_in_.push_back(&state_->frames(peer, rank_));
    notices_out_.push_back(&state_->notices(rank_, peer));
    notices_in_.push_back(&state_->notices(peer, rank_));
  }
}

rank_t LocalDevice::ranks() const { return ranks_; }
std::size_t LocalDevice::max_frame_bytes() const { return frame_bytes_; }

void LocalDevice::rank_error(rank_t r, const char* what) const {
  throw Error(std::string("LocalDevice::") + what + ": rank " + std::to_string(r) + " is outside [0, " +
              std::to_string(ranks_) + ")");
}

bool LocalDevice::chance(double probability) {
  return std::uniform_real_distribution<double>(0.0, 1.0)(random_) < probability;
}

Post LocalDevice::try_send(rank_t dest, std::span<const std::byte> frame) {
  check_rank(dest, "try_send");
  if (frame.size() > frame_bytes_) [[unlikely]] {
    throw Error("LocalDevice::try_send: frame of " + std::to_string(frame.size()) + " bytes exceeds max_frame_bytes " +
                std::to_string(frame_bytes_));
  }
  if (faults_ && chance(state_->options.faults.retry_probability)) return Post::retry;
  return frames_out_[static_cast<std::size_t>(dest)]->try_push(frame) ? Post::done : Post::retry;
}

Post LocalDevice::try_expose(rank_t origin, std::span<std::byte> region, std::uint64_t context,
                             RemoteRegion& named) {
  check_rank(origin, "try_expose");
  // Threads share the address space: the region is named by its address; the key carries the
  // context back in the notice.
  named.address = reinterpret_cast<std::uint64_t>(region.data());
  named.key = context;
  named.bytes = region.size();
  return Post::done;
}

Post LocalDevice::try_put(rank_t target, const RemoteRegion& region, std::span<const std::byte> data,
                          std::uint64_t context) {
  check_rank(target, "try_put");
  if (data.size() != region.bytes) {
    throw Error("LocalDevice::try_put: " + std::to_string(data.size()) + " bytes into a region of " +
                std::to_string(region.bytes) + "; a put must fill its exposed region exactly");
  }
  if (faults_ && chance(state_->options.faults.retry_probability)) return Post::retry;
  auto& notices = *notices_out_[static_cast<std::size_t>(target)];
  if (notices.full()) return Post::retry;
  if (!data.empty()) std::memcpy(reinterpret_cast<void*>(region.address), data.data(), data.size());
  notices.try_push(region.key);  // cannot fail: this thread is the only producer and saw room
  if (faults_ && chance(0.3)) {
    puts_to_report_.push_back(context);
    return Post::posted;
  }
  return Post::done;
}

std::size_t LocalDevice::release_held(EventSink& sink) {
  std::size_t events = 0;
  for (std::size_t i = 0; i < held_.size();) {
    if (chance(state_->options.faults.hold_probability)) {
      ++i;
      continue;
    }
    Held item = std::move(held_[i]);
    held_[i] = std::move(held_.back());  // swap-remove: reorders what stays behind
    held_.pop_back();
    if (item.is_notice) {
      sink.on_put_arrived(item.notice);
    } else {
      sink.on_frame(item.source, item.frame);
    }
    ++events;
  }
  return events;
}

std::size_t LocalDevice::progress(EventSink& sink) {
  if (faults_) return progress_with_faults(sink);
  std::size_t events = 0;
  rank_t source = next_source_;
  for (rank_t i = 0; i < ranks_; ++i, source = source + 1 == ranks_ ? 0 : source + 1) {
    const auto from = static_cast<std::size_t>(source);
    NoticeRing& notices = *notices_in_[from];
    std::uint64_t notice = 0;
    for (std::size_t n = 0; n < notices_per_source_per_progress && notices.try_pop(notice); ++n) {
      sink.on_put_arrived(notice);
      ++events;
    }
    FrameRing& frames = *frames_in_[from];
    for (std::size_t n = 0; n < frames_per_source_per_progress; ++n) {
      if (!frames.try_pop_with([&](std::span<const std::byte> frame) { sink.on_frame(source, frame); })) break;
      ++events;
    }
  }
  next_source_ = next_source_ + 1 == ranks_ ? 0 : next_source_ + 1;
  return events;
}

// The same, with fault injection: puts reported late, frames and notices held back and reordered.
std::size_t LocalDevice::progress_with_faults(EventSink& sink) {
  std::size_t events = 0;
  const std::size_t max_held = state_->options.faults.max_held;
  std::vector<std::uint64_t> sent;
  sent.swap(puts_to_report_);
  for (std::uint64_t context : sent) sink.on_put_sent(context);
  events += sent.size();
  events += release_held(sink);
  for (rank_t i = 0; i < ranks_; ++i) {
    const rank_t source = (next_source_ + i) % ranks_;
    auto& frames = *frames_in_[static_cast<std::size_t>(source)];
    auto& notices = *notices_in_[static_cast<std::size_t>(source)];
    for (std::size_t n = 0; n < notices_per_source_per_progress; ++n) {
      std::uint64_t notice = 0;
      if (held_.size() >= max_held || !notices.try_pop(notice)) break;
      held_.push_back(Held{source, true, notice, {}});
    }
    for (std::size_t n = 0; n < frames_per_source_per_progress; ++n) {
      if (held_.size() >= max_held) break;
      const bool popped = frames.try_pop_with([&](std::span<const std::byte> frame) {
        held_.push_back(Held{source, false, 0, std::vector<std::byte>(frame.begin(), frame.end())});
      });
      if (!popped) break;
    }
  }
  next_source_ = (next_source_ + 1) % ranks_;
  return events;
}

void LocalDevice::barrier() { state_->barrier.arrive_and_wait(); }

}  // namespace courier::net
