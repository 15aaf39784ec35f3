#include "local_device.hpp"

#include <cstring>
#include <string>

#include "courier/core/error.hpp"
#include "local_state.hpp"

namespace courier::net {

namespace {
// Cells read per progress call at most, so a caller's round stays short when peers flood it.
constexpr std::size_t cells_per_progress = 64;
}  // namespace

LocalDevice::LocalDevice(std::shared_ptr<LocalFabric::State> state, rank_t rank)
    : state_(std::move(state)),
      rank_(rank),
      ranks_(state_->ranks),
      frame_bytes_(state_->options.frame_bytes),
      faults_(state_->options.faults.enabled),
      inbox_(state_->inbox(rank)),
      pool_(state_->pool(rank)),
      random_(state_->options.faults.seed * 0x9e3779b97f4a7c15ULL + static_cast<std::uint64_t>(rank)) {}

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
  Inbox& inbox = state_->inbox(dest);
  if (frame.size() <= Inbox::inline_bytes) {  // bounded by the inbox alone
    const bool pushed = inbox.try_push([&](Inbox::Cell& cell) {
      cell.source = rank_;
      cell.kind = Inbox::Kind::inline_frame;
      cell.reserved2 = static_cast<std::uint16_t>(frame.size());
      if (!frame.empty()) std::memcpy(cell.data, frame.data(), frame.size());
    });
    return pushed ? Post::done : Post::retry;
  }
  if (!pool_.try_admit()) return Post::retry;
  // Copied only once the inbox has taken the cell: a full inbox costs no copy.
  const std::uint32_t index = pool_.take();
  std::byte* buffer = pool_.buffer(index);
  std::memcpy(buffer, frame.data(), frame.size());
  const bool pushed = inbox.try_push([&](Inbox::Cell& cell) {
    cell.source = rank_;
    cell.kind = Inbox::Kind::pooled_frame;
    const std::uint64_t word = (std::uint64_t{index} << 32) | frame.size();
    std::memcpy(cell.data, &word, sizeof word);
  });
  if (!pushed) pool_.give_back(index);  // its own stack, and the admission back
  return pushed ? Post::done : Post::retry;
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
  // The bytes land before the notice is published (its release store orders them), and the
  // notice's cell is claimed first, so a full inbox leaves the region untouched.
  const bool pushed = state_->inbox(target).try_push([&](Inbox::Cell& cell) {
    if (!data.empty()) std::memcpy(reinterpret_cast<void*>(region.address), data.data(), data.size());
    cell.source = rank_;
    cell.kind = Inbox::Kind::notice;
    std::memcpy(cell.data, &region.key, sizeof region.key);
  });
  if (!pushed) return Post::retry;
  if (faults_ && chance(0.3)) {
    puts_to_report_.push_back(context);
    return Post::posted;
  }
  return Post::done;
}

template <class Frame, class Notice>
bool LocalDevice::take_one(Frame&& frame, Notice&& notice) {
  return inbox_.try_pop_with([&](const Inbox::Cell& cell) {
    switch (cell.kind) {
      case Inbox::Kind::inline_frame:
        frame(cell.source, std::span<const std::byte>(cell.data, cell.reserved2));
        break;
      case Inbox::Kind::pooled_frame: {
        std::uint64_t word = 0;
        std::memcpy(&word, cell.data, sizeof word);
        const auto index = static_cast<std::uint32_t>(word >> 32);
        FramePool& pool = state_->pool(cell.source);
        frame(cell.source, std::span<const std::byte>(pool.buffer(index), word & 0xffffffffu));
        pool.give_back(index);
        break;
      }
      case Inbox::Kind::notice: {
        std::uint64_t value = 0;
        std::memcpy(&value, cell.data, sizeof value);
        notice(value);
        break;
      }
    }
  });
}

std::size_t LocalDevice::progress(EventSink& sink) {
  if (faults_) return progress_with_faults(sink);
  std::size_t events = 0;
  while (events < cells_per_progress &&
         take_one([&](rank_t source, std::span<const std::byte> frame) { sink.on_frame(source, frame); },
                  [&](std::uint64_t notice) { sink.on_put_arrived(notice); })) {
    ++events;
  }
  return events;
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

// The same, with fault injection: puts reported late, frames and notices held back and reordered.
std::size_t LocalDevice::progress_with_faults(EventSink& sink) {
  std::size_t events = 0;
  const std::size_t max_held = state_->options.faults.max_held;
  std::vector<std::uint64_t> sent;
  sent.swap(puts_to_report_);
  for (std::uint64_t context : sent) sink.on_put_sent(context);
  events += sent.size();
  events += release_held(sink);
  for (std::size_t n = 0; n < cells_per_progress && held_.size() < max_held; ++n) {
    const bool taken = take_one(
        [&](rank_t source, std::span<const std::byte> frame) {
          held_.push_back(Held{source, false, 0, std::vector<std::byte>(frame.begin(), frame.end())});
        },
        [&](std::uint64_t notice) {
          held_.push_back(Held{rank_, true, notice, {}});
        });
    if (!taken) break;
  }
  return events;
}

void LocalDevice::barrier() { state_->barrier.arrive_and_wait(); }

}  // namespace courier::net
