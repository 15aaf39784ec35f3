// mpi-probe (see include/courier/sync/mpi_probe_channel.hpp). Everything named "comm thread"
// below runs only on the communication thread; the rest is called by compute threads.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <deque>
#include <map>
#include <mutex>
#include <string>

#include "courier/core/backoff.hpp"
#include "courier/core/error.hpp"
#include "courier/net/mpi_check.hpp"
#include "courier/sync/mpi_probe_channel.hpp"
#include "courier/sync/wait.hpp"
#include "plumbing.hpp"

namespace courier::sync {

namespace {

using namespace mpi;
using Clock = std::chrono::steady_clock;

// Every wire message carries tag 1 on the channel's own communicator.
constexpr int kTag = 1;

// Follows each message in a wire buffer: a trailer rather than a header, so a buffer holding one
// message is handed to the receiver as it is, cut to the message, without a copy.
struct Trailer {
  std::uint64_t phase;
  std::uint64_t bytes;
};

class ProbeChannel final : public MpiProbeChannel {
 public:
  ProbeChannel(MPI_Comm comm, MpiProbeOptions options)
      : plumbing_(comm, "mpi-probe"), options_(options), outgoing_(static_cast<std::size_t>(plumbing_.ranks())) {
    plumbing_.thread().start([this] { return progress(); });
  }
  ~ProbeChannel() override;

  rank_t rank() const override { return plumbing_.rank(); }
  rank_t ranks() const override { return plumbing_.ranks(); }
  std::string name() const override { return "mpi-probe"; }
  MpiProbeOptions options() const override { return options_; }

  // Messages of any size fit: the receiver learns the size from MPI_Iprobe.
  void reserve(std::span<const std::size_t>, std::span<const std::size_t>) override {}
  void begin_phase(std::span<const rank_t> to, std::span<const rank_t> from) override;
  Bytes acquire(std::size_t bytes) override { return plumbing_.pool().acquire(bytes + sizeof(Trailer)); }
  void send(rank_t peer, Bytes message) override;
  std::optional<Received> try_receive() override;
  void release(Bytes buffer) override { plumbing_.pool().recycle(std::move(buffer)); }
  void end_phase() override;

  std::uint64_t sum_all(std::uint64_t value) override { return plumbing_.sum_all(value); }
  double sum_all(double value) override { return plumbing_.sum_all(value); }
  double max_all(double value) override { return plumbing_.max_all(value); }

  void restart_buffer_peak() override { plumbing_.pool().restart_peak(); }
  ChannelStats stats() const override;
  MpiProbeStats probe_stats() const override;

 private:
  struct Outgoing {  // messages packed for one peer, not yet sent
    Bytes wire;
    std::size_t messages = 0;
    Clock::time_point oldest;
  };
  struct Pending {
    MPI_Request request;
    Bytes buffer;
    rank_t peer;
  };
  enum class Flush { size, age, close };

  // comm thread
  Activity progress();
  void pack(rank_t peer, std::uint64_t phase, Bytes message);
  void flush(rank_t peer, Flush why);
  bool flush_aged();
  bool complete(std::vector<Pending>& pending, bool receiving);
  bool probe();
  void deliver(rank_t source, Bytes wire);
  void drain();

  mpi::Plumbing plumbing_;
  const MpiProbeOptions options_;

  // comm thread only
  std::vector<Outgoing> outgoing_;
  std::size_t packed_peers_ = 0;
  std::vector<Pending> sends_, receives_;

  // The phase: begun and ended by one thread, messages taken by many.
  std::atomic<std::uint64_t> phase_{0};
  std::atomic<bool> phase_open_{false};
  std::size_t expected_sends_ = 0, expected_receives_ = 0;
  std::atomic<std::size_t> sent_{0}, taken_{0};
  std::mutex inbox_mutex_;
  std::deque<Received> ready_;                            // of the current phase
  std::map<std::uint64_t, std::vector<Received>> early_;  // of phases not begun yet

  std::atomic<std::uint64_t> messages_{0}, bytes_{0}, phases_{0};
  std::atomic<std::uint64_t> wire_messages_{0}, wire_bytes_{0}, by_size_{0}, by_age_{0}, at_close_{0};
};

ProbeChannel::~ProbeChannel() {
  try {
    plumbing_.thread().rethrow_if_failed();
    plumbing_.thread().call([this] { drain(); });
  } catch (const std::exception& error) {
    std::fprintf(stderr, "mpi-probe: closing after an error: %s\n", error.what());
  }
  plumbing_.thread().stop();
}

void ProbeChannel::begin_phase(std::span<const rank_t> to, std::span<const rank_t> from) {
  plumbing_.thread().rethrow_if_failed();
  if (phase_open_.load()) throw Error("mpi-probe: begin_phase while the previous phase is still open");
  for (rank_t peer : to) plumbing_.check_peer(peer, "begin_phase: a send");
  for (rank_t peer : from) plumbing_.check_peer(peer, "begin_phase: a receive");
  expected_sends_ = to.size();
  expected_receives_ = from.size();
  sent_ = 0;
  taken_ = 0;
  {
    std::lock_guard lock(inbox_mutex_);
    const std::uint64_t phase = phase_.load() + 1;
    phase_.store(phase);
    if (auto early = early_.find(phase); early != early_.end()) {
      for (auto& message : early->second) ready_.push_back(std::move(message));
      early_.erase(early);
    }
  }
  phase_open_.store(true);
  plumbing_.thread().wake();
}

void ProbeChannel::send(rank_t peer, Bytes message) {
  plumbing_.thread().rethrow_if_failed();
  plumbing_.check_peer(peer, "send");
  messages_.fetch_add(1, std::memory_order_relaxed);
  bytes_.fetch_add(message.size(), std::memory_order_relaxed);
  sent_.fetch_add(1, std::memory_order_relaxed);
  const std::uint64_t phase = phase_.load(std::memory_order_relaxed);
  plumbing_.thread().post(
      [this, peer, phase, message = std::move(message)]() mutable { pack(peer, phase, std::move(message)); });
}

std::optional<Received> ProbeChannel::try_receive() {
  plumbing_.thread().rethrow_if_failed();
  std::lock_guard lock(inbox_mutex_);
  if (ready_.empty()) return std::nullopt;
  Received message = std::move(ready_.front());
  ready_.pop_front();
  taken_.fetch_add(1, std::memory_order_relaxed);
  return message;
}

void ProbeChannel::end_phase() {
  plumbing_.thread().rethrow_if_failed();
  if (sent_.load() != expected_sends_ || taken_.load() != expected_receives_)
    throw Error("mpi-probe: end_phase with " + std::to_string(sent_.load()) + " of " +
                std::to_string(expected_sends_) + " messages sent and " + std::to_string(taken_.load()) + " of " +
                std::to_string(expected_receives_) + " received; a phase sends and receives all of its messages");
  phase_open_.store(false);
  phases_.fetch_add(1, std::memory_order_relaxed);
}

ChannelStats ProbeChannel::stats() const {
  ChannelStats s;
  s.messages_sent = messages_.load();
  s.bytes_sent = bytes_.load();
  s.phases = phases_.load();
  s.buffer_bytes_peak = plumbing_.pool().peak_bytes();
  return s;
}

MpiProbeStats ProbeChannel::probe_stats() const {
  return {wire_messages_.load(), wire_bytes_.load(), by_size_.load(), by_age_.load(), at_close_.load()};
}

// ---- communication thread ----

Activity ProbeChannel::progress() {
  bool worked = flush_aged();
  worked |= complete(sends_, false);
  worked |= probe();
  worked |= complete(receives_, true);
  if (worked) return Activity::worked;
  const bool outstanding = phase_open_.load(std::memory_order_relaxed) || packed_peers_ > 0 ||
                           !sends_.empty() || !receives_.empty();
  return outstanding ? Activity::polling : Activity::idle;
}

void ProbeChannel::pack(rank_t peer, std::uint64_t phase, Bytes message) {
  const Trailer trailer{phase, message.size()};
  Outgoing& out = outgoing_[static_cast<std::size_t>(peer)];
  Bytes& wire = out.messages == 0 ? message : out.wire;
  const std::size_t capacity = wire.capacity();
  if (out.messages > 0) wire.insert(wire.end(), message.begin(), message.end());
  const auto* bytes = reinterpret_cast<const std::byte*>(&trailer);
  wire.insert(wire.end(), bytes, bytes + sizeof trailer);
  if (wire.capacity() != capacity) plumbing_.pool().resized(capacity, wire.capacity());
  if (out.messages == 0) {
    out.wire = std::move(message);
    out.oldest = Clock::now();
    ++packed_peers_;
  } else {
    plumbing_.pool().recycle(std::move(message));
  }
  ++out.messages;
  if (out.wire.size() >= options_.eager_limit) flush(peer, Flush::size);
  else if (options_.max_age.count() <= 0) flush(peer, Flush::age);
}

void ProbeChannel::flush(rank_t peer, Flush why) {
  Outgoing& out = outgoing_[static_cast<std::size_t>(peer)];
  Pending pending{MPI_REQUEST_NULL, std::move(out.wire), peer};
  out = Outgoing{};
  --packed_peers_;
  net::mpi_check(MPI_Isend(pending.buffer.data(), net::mpi_count(pending.buffer.size(), "a message"), MPI_BYTE, peer,
                           kTag, plumbing_.comm(), &pending.request),
                 "MPI_Isend");
  wire_messages_.fetch_add(1, std::memory_order_relaxed);
  wire_bytes_.fetch_add(pending.buffer.size(), std::memory_order_relaxed);
  (why == Flush::size ? by_size_ : why == Flush::age ? by_age_ : at_close_).fetch_add(1, std::memory_order_relaxed);
  sends_.push_back(std::move(pending));
}

bool ProbeChannel::flush_aged() {
  if (packed_peers_ == 0) return false;
  const auto now = Clock::now();
  bool flushed = false;
  for (rank_t peer = 0; peer < plumbing_.ranks(); ++peer) {
    const Outgoing& out = outgoing_[static_cast<std::size_t>(peer)];
    if (out.messages > 0 && now - out.oldest >= options_.max_age) {
      flush(peer, Flush::age);
      flushed = true;
    }
  }
  return flushed;
}

bool ProbeChannel::complete(std::vector<Pending>& pending, bool receiving) {
  bool worked = false;
  for (std::size_t i = 0; i < pending.size();) {
    int done = 0;
    net::mpi_check(MPI_Test(&pending[i].request, &done, MPI_STATUS_IGNORE), "MPI_Test");
    if (!done) {
      ++i;
      continue;
    }
    Pending finished = std::move(pending[i]);
    pending[i] = std::move(pending.back());
    pending.pop_back();
    if (receiving)
      deliver(finished.peer, std::move(finished.buffer));
    else
      plumbing_.pool().recycle(std::move(finished.buffer));
    worked = true;
  }
  return worked;
}

bool ProbeChannel::probe() {
  bool worked = false;
  // A bounded number per call, so a flood of arrivals cannot starve sends.
  for (int i = 0; i < 16; ++i) {
    int arrived = 0;
    MPI_Status status;
    net::mpi_check(MPI_Iprobe(MPI_ANY_SOURCE, kTag, plumbing_.comm(), &arrived, &status), "MPI_Iprobe");
    if (!arrived) break;
    int count = 0;
    net::mpi_check(MPI_Get_count(&status, MPI_BYTE, &count), "MPI_Get_count");
    Pending pending{MPI_REQUEST_NULL, plumbing_.pool().acquire(static_cast<std::size_t>(count)), status.MPI_SOURCE};
    pending.buffer.resize(static_cast<std::size_t>(count));
    // Only this thread receives, so the receive from the probed source and tag gets the probed message.
    net::mpi_check(
        MPI_Irecv(pending.buffer.data(), count, MPI_BYTE, status.MPI_SOURCE, kTag, plumbing_.comm(), &pending.request),
        "MPI_Irecv");
    receives_.push_back(std::move(pending));
    worked = true;
  }
  return worked;
}

void ProbeChannel::deliver(rank_t source, Bytes wire) {
  // Messages from the back: [message][trailer] ... [message][trailer].
  std::vector<std::pair<std::uint64_t, Bytes>> messages;
  std::size_t end = wire.size();
  while (end > 0) {
    Trailer trailer;
    if (end < sizeof trailer) throw Error("mpi-probe: a malformed message from rank " + std::to_string(source));
    std::memcpy(&trailer, wire.data() + end - sizeof trailer, sizeof trailer);
    const std::size_t body_end = end - sizeof trailer;
    if (trailer.bytes > body_end) throw Error("mpi-probe: a malformed message from rank " + std::to_string(source));
    const std::size_t begin = body_end - static_cast<std::size_t>(trailer.bytes);
    if (begin == 0) {  // the first message: the wire buffer itself becomes it
      wire.resize(body_end);
      messages.emplace_back(trailer.phase, std::move(wire));
      break;
    }
    Bytes copy = plumbing_.pool().acquire(trailer.bytes);
    copy.insert(copy.end(), wire.begin() + static_cast<std::ptrdiff_t>(begin),
                wire.begin() + static_cast<std::ptrdiff_t>(body_end));
    messages.emplace_back(trailer.phase, std::move(copy));
    end = begin;
  }
  std::lock_guard lock(inbox_mutex_);
  const std::uint64_t current = phase_.load();
  for (auto& [phase, bytes] : messages) {
    if (phase < current)
      throw Error("mpi-probe: a message of phase " + std::to_string(phase) + " from rank " + std::to_string(source) +
                  " arrived in phase " + std::to_string(current) +
                  "; every rank must begin the same phases in the same order");
    Received message{source, std::move(bytes)};
    if (phase == current)
      ready_.push_back(std::move(message));
    else
      early_[phase].push_back(std::move(message));
  }
}

void ProbeChannel::drain() {
  for (rank_t peer = 0; peer < plumbing_.ranks(); ++peer)
    if (outgoing_[static_cast<std::size_t>(peer)].messages > 0) flush(peer, Flush::close);
  // Every message sent belongs to a phase its receiver takes, so these complete; the bound only
  // keeps a broken run from hanging at exit.
  const auto deadline = Clock::now() + std::chrono::seconds(30);
  Backoff backoff(kPhaseWait);
  while (!sends_.empty() || !receives_.empty()) {
    if (Clock::now() > deadline) throw Error("mpi-probe: messages still in flight after 30 s at close");
    if (progress() == Activity::worked)
      backoff.reset();
    else
      backoff.pause();
  }
}

}  // namespace

std::unique_ptr<MpiProbeChannel> MpiProbeChannel::create(MPI_Comm comm, MpiProbeOptions options) {
  return std::make_unique<ProbeChannel>(comm, options);
}

}  // namespace courier::sync
