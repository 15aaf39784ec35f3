// mpi-rma (see include/courier/sync/mpi_rma_channel.hpp). Everything named "comm thread" below
// runs only on the communication thread; the rest is called by compute threads.
#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstring>
#include <deque>
#include <iterator>
#include <map>
#include <mutex>
#include <string>
#include <string_view>

#include "courier/core/backoff.hpp"
#include "courier/core/error.hpp"
#include "courier/core/timer.hpp"
#include "courier/net/mpi_check.hpp"
#include "courier/sync/mpi_rma_channel.hpp"
#include "courier/sync/wait.hpp"
#include "plumbing.hpp"

namespace courier::sync {

namespace {

using namespace mpi;

// The front of every remote buffer: the size of the message behind it.
using SizeWord = std::uint64_t;

std::size_t round_up(std::size_t bytes, std::size_t to = 8) { return (bytes + to - 1) / to * to; }

// Windows are sized in whole cache lines. With sizes that are not (696 bytes on one rank beside
// 704 on another), MPICH 4.0.2 at 3-4 ranks on one node put messages 8 bytes early in a window
// that began 696 bytes into its page: the message overwrote its own size word ("exchange_all
// received a malformed size"). Open MPI was never affected.
constexpr std::size_t kWindowGranule = 64;

// MPICH with the ch4:ucx device (4.0.2, as Debian ships it) returns from MPI_Win_complete while
// puts of more than about 64 KiB still read their origin buffers: a buffer written again at once
// reaches its target with the new bytes, although the target's epoch completes as if all was well.
// (A stand-alone program shows it: post/start, puts of 512 KiB, complete, then overwrite the
// buffer; Open MPI, and MPICH over UCX's tcp transport, deliver the puts intact.) Under such an
// MPI the channel keeps sent buffers until the next collective, which every rank enters only after
// its earlier phases' messages have all arrived.
bool puts_outlive_their_epoch() {
  char version[MPI_MAX_LIBRARY_VERSION_STRING];
  int length = 0;
  net::mpi_check(MPI_Get_library_version(version, &length), "MPI_Get_library_version");
  const std::string_view text(version, static_cast<std::size_t>(length));
  return text.starts_with("MPICH") && text.find("ch4:ucx") != std::string_view::npos;
}

class RmaChannel final : public MpiRmaChannel {
 public:
  explicit RmaChannel(MPI_Comm comm);
  ~RmaChannel() override;

  rank_t rank() const override { return plumbing_.rank(); }
  rank_t ranks() const override { return plumbing_.ranks(); }
  std::string name() const override { return "mpi-rma"; }

  void reserve(std::span<const std::size_t> max_send, std::span<const std::size_t> max_receive) override;
  void begin_phase(std::span<const rank_t> to, std::span<const rank_t> from) override;
  Bytes acquire(std::size_t bytes) override { return plumbing_.pool().acquire(bytes); }
  void send(rank_t peer, Bytes message) override;
  std::optional<Received> try_receive() override;
  void release(Bytes buffer) override { plumbing_.pool().recycle(std::move(buffer)); }
  void end_phase() override;

  std::uint64_t sum_all(std::uint64_t value) override { return after_collective(plumbing_.sum_all(value)); }
  double sum_all(double value) override { return after_collective(plumbing_.sum_all(value)); }
  double max_all(double value) override { return after_collective(plumbing_.max_all(value)); }

  void restart_buffer_peak() override { plumbing_.pool().restart_peak(); }
  ChannelStats stats() const override;
  std::uint64_t window_bytes() const override { return window_bytes_.load(); }

 private:
  struct Window {  // where messages from one source land on this rank
    MPI_Win win = MPI_WIN_NULL;
    std::byte* base = nullptr;
    std::size_t bytes = 0;     // allocated: whole granules, at least the size word + capacity
    std::size_t capacity = 0;  // the largest message reserved so far (what its source may send)
  };

  // Every rank has passed the phases that ended here before this collective: their puts are done.
  template <class T>
  T after_collective(T result) {
    recycle_retired();
    return result;
  }
  void recycle_retired();

  // comm thread
  Activity progress();
  void resize_windows(std::vector<std::size_t> need);
  void open_epochs(std::vector<rank_t> to, std::vector<rank_t> from);
  void put(rank_t peer, Bytes message);
  MPI_Group group_of(std::vector<rank_t> ranks);
  void close();

  mpi::Plumbing plumbing_;
  MPI_Group everyone_ = MPI_GROUP_NULL;
  std::map<std::vector<rank_t>, MPI_Group> groups_;  // cached: patterns repeat every round

  // Changed only by reserve() between phases.
  std::vector<Window> windows_;                // by source
  std::vector<std::size_t> remote_capacity_;   // by destination: the largest message my buffer there takes
  std::atomic<std::uint64_t> window_bytes_{0};
  double setup_seconds_ = 0;

  // comm thread only
  std::vector<rank_t> exposed_;      // sources whose messages have not landed yet
  std::size_t puts_left_ = 0;
  std::vector<SizeWord> size_words_;  // by destination: must stay put until the epoch completes
  std::vector<Bytes> in_flight_;

  // Sent buffers kept from MPI_Win_complete until the next collective (puts_outlive_their_epoch):
  // held_ while their phase is open, retired_ once it has ended here.
  const bool hold_sent_;
  std::mutex held_mutex_;
  std::vector<Bytes> held_, retired_;

  // The phase
  std::size_t expected_sends_ = 0, expected_receives_ = 0;
  std::atomic<std::size_t> sent_{0}, taken_{0};
  std::atomic<bool> access_done_{true};
  bool phase_open_ = false;
  std::mutex landed_mutex_;
  std::deque<rank_t> landed_;  // sources whose message can be read

  std::atomic<std::uint64_t> messages_{0}, bytes_{0}, phases_{0};
};

RmaChannel::RmaChannel(MPI_Comm comm)
    : plumbing_(comm, "mpi-rma"),
      windows_(static_cast<std::size_t>(plumbing_.ranks())),
      remote_capacity_(static_cast<std::size_t>(plumbing_.ranks()), 0),
      size_words_(static_cast<std::size_t>(plumbing_.ranks()), 0),
      hold_sent_(puts_outlive_their_epoch()) {
  net::mpi_check(MPI_Comm_group(plumbing_.comm(), &everyone_), "MPI_Comm_group");
  plumbing_.thread().start([this] { return progress(); });
}

RmaChannel::~RmaChannel() {
  try {
    plumbing_.thread().rethrow_if_failed();
    plumbing_.thread().call([this] { close(); });
  } catch (const std::exception& error) {
    std::fprintf(stderr, "mpi-rma: closing after an error: %s\n", error.what());
  }
  plumbing_.thread().stop();
}

void RmaChannel::reserve(std::span<const std::size_t> max_send, std::span<const std::size_t> max_receive) {
  plumbing_.thread().rethrow_if_failed();
  const auto ranks = static_cast<std::size_t>(plumbing_.ranks());
  if (max_send.size() != ranks || max_receive.size() != ranks)
    throw Error("mpi-rma: reserve needs one size per rank (" + std::to_string(ranks) + ")");
  if (phase_open_) throw Error("mpi-rma: reserve during a phase; call it before begin_phase");
  std::vector<std::size_t> need(ranks, 0);
  for (std::size_t s = 0; s < ranks; ++s)
    if (static_cast<rank_t>(s) != plumbing_.rank() && max_receive[s] > 0)
      need[s] = sizeof(SizeWord) + round_up(max_receive[s]);
  plumbing_.thread().call([&] { resize_windows(std::move(need)); });
  recycle_retired();  // resize_windows was collective
}

void RmaChannel::begin_phase(std::span<const rank_t> to, std::span<const rank_t> from) {
  plumbing_.thread().rethrow_if_failed();
  if (phase_open_) throw Error("mpi-rma: begin_phase while the previous phase is still open");
  for (rank_t peer : to) {
    plumbing_.check_peer(peer, "begin_phase: a send");
    if (remote_capacity_[static_cast<std::size_t>(peer)] == 0)
      throw Error("mpi-rma: no window to send to rank " + std::to_string(peer) + "; reserve() sizes first");
  }
  for (rank_t peer : from) {
    plumbing_.check_peer(peer, "begin_phase: a receive");
    if (windows_[static_cast<std::size_t>(peer)].bytes == 0)
      throw Error("mpi-rma: no window to receive from rank " + std::to_string(peer) + "; reserve() sizes first");
  }
  expected_sends_ = to.size();
  expected_receives_ = from.size();
  sent_ = 0;
  taken_ = 0;
  access_done_ = to.empty();
  phase_open_ = true;
  plumbing_.thread().post([this, to = std::vector<rank_t>(to.begin(), to.end()),
                           from = std::vector<rank_t>(from.begin(), from.end())]() mutable {
    open_epochs(std::move(to), std::move(from));
  });
}

void RmaChannel::send(rank_t peer, Bytes message) {
  plumbing_.thread().rethrow_if_failed();
  plumbing_.check_peer(peer, "send");
  const std::size_t capacity = remote_capacity_[static_cast<std::size_t>(peer)];
  if (message.size() > capacity)
    throw Error("mpi-rma: a message of " + std::to_string(message.size()) + " bytes for rank " +
                std::to_string(peer) + ", whose window takes " + std::to_string(capacity) +
                "; reserve() must cover the largest message");
  messages_.fetch_add(1, std::memory_order_relaxed);
  bytes_.fetch_add(message.size(), std::memory_order_relaxed);
  sent_.fetch_add(1, std::memory_order_relaxed);
  plumbing_.thread().post([this, peer, message = std::move(message)]() mutable { put(peer, std::move(message)); });
}

std::optional<Received> RmaChannel::try_receive() {
  plumbing_.thread().rethrow_if_failed();
  rank_t source;
  {
    std::lock_guard lock(landed_mutex_);
    if (landed_.empty()) return std::nullopt;
    source = landed_.front();
    landed_.pop_front();
  }
  // The epoch on this window is over: its memory is ours to read until the next MPI_Win_post.
  const Window& window = windows_[static_cast<std::size_t>(source)];
  SizeWord size;
  std::memcpy(&size, window.base, sizeof size);
  if (size > window.capacity)
    throw Error("mpi-rma: rank " + std::to_string(source) + " wrote a size beyond its window");
  Bytes bytes = plumbing_.pool().acquire(static_cast<std::size_t>(size));
  bytes.insert(bytes.end(), window.base + sizeof size, window.base + sizeof size + size);
  taken_.fetch_add(1, std::memory_order_relaxed);
  return Received{source, std::move(bytes)};
}

void RmaChannel::end_phase() {
  plumbing_.thread().rethrow_if_failed();
  if (sent_.load() != expected_sends_ || taken_.load() != expected_receives_)
    throw Error("mpi-rma: end_phase with " + std::to_string(sent_.load()) + " of " +
                std::to_string(expected_sends_) + " messages sent and " + std::to_string(taken_.load()) + " of " +
                std::to_string(expected_receives_) + " received; a phase sends and receives all of its messages");
  // The access epoch must be closed before the next one opens on this window.
  Backoff backoff(kPhaseWait);
  while (!access_done_.load(std::memory_order_acquire)) {
    plumbing_.thread().rethrow_if_failed();
    backoff.pause();
  }
  phase_open_ = false;
  phases_.fetch_add(1, std::memory_order_relaxed);
  if (hold_sent_) {
    std::lock_guard lock(held_mutex_);
    std::move(held_.begin(), held_.end(), std::back_inserter(retired_));
    held_.clear();
  }
}

void RmaChannel::recycle_retired() {
  if (!hold_sent_) return;
  std::lock_guard lock(held_mutex_);
  for (auto& sent : retired_) plumbing_.pool().recycle(std::move(sent));
  retired_.clear();
}

ChannelStats RmaChannel::stats() const {
  ChannelStats s;
  s.messages_sent = messages_.load();
  s.bytes_sent = bytes_.load();
  s.phases = phases_.load();
  s.buffer_bytes_peak = plumbing_.pool().peak_bytes();
  s.setup_seconds = setup_seconds_;
  return s;
}

// ---- communication thread ----

Activity RmaChannel::progress() {
  bool worked = false;
  for (std::size_t i = 0; i < exposed_.size();) {
    int done = 0;
    net::mpi_check(MPI_Win_test(windows_[static_cast<std::size_t>(exposed_[i])].win, &done), "MPI_Win_test");
    if (!done) {
      ++i;
      continue;
    }
    {
      std::lock_guard lock(landed_mutex_);
      landed_.push_back(exposed_[i]);
    }
    exposed_[i] = exposed_.back();
    exposed_.pop_back();
    worked = true;
  }
  if (worked) return Activity::worked;
  return exposed_.empty() && puts_left_ == 0 ? Activity::idle : Activity::polling;
}

void RmaChannel::resize_windows(std::vector<std::size_t> need) {
  const auto ranks = static_cast<std::size_t>(plumbing_.ranks());
  // Window s is collective over all ranks: grow it everywhere if any rank needs more.
  std::vector<int> grow(ranks, 0);
  for (std::size_t s = 0; s < ranks; ++s) grow[s] = need[s] > windows_[s].bytes;
  net::mpi_check(MPI_Allreduce(MPI_IN_PLACE, grow.data(), static_cast<int>(ranks), MPI_INT, MPI_MAX, plumbing_.comm()),
                 "MPI_Allreduce");
  MPI_Info info;
  net::mpi_check(MPI_Info_create(&info), "MPI_Info_create");
  MPI_Info_set(info, "no_locks", "true");  // active target only: lets MPI skip lock support
  Timer timer;
  for (std::size_t s = 0; s < ranks; ++s) {
    if (!grow[s]) continue;
    Window& window = windows_[s];
    const std::size_t bytes = round_up(std::max(window.bytes, need[s]), kWindowGranule);
    if (window.win != MPI_WIN_NULL) {
      net::mpi_check(MPI_Win_free(&window.win), "MPI_Win_free");
      plumbing_.pool().remove_fixed(window.bytes);
      window_bytes_ -= window.bytes;
    }
    void* base = nullptr;
    net::mpi_check(MPI_Win_allocate(static_cast<MPI_Aint>(bytes), 1, info, plumbing_.comm(), &base, &window.win),
                   "MPI_Win_allocate");
    MPI_Win_set_errhandler(window.win, MPI_ERRORS_RETURN);
    window.base = static_cast<std::byte*>(base);
    window.bytes = bytes;
    plumbing_.pool().add_fixed(bytes);
    window_bytes_ += bytes;
  }
  setup_seconds_ += timer.elapsed();
  MPI_Info_free(&info);
  // Tell each source how large a message its buffer here takes.
  std::vector<std::uint64_t> capacity_here(ranks, 0), capacity_there(ranks, 0);
  for (std::size_t s = 0; s < ranks; ++s) {
    if (need[s] > 0) windows_[s].capacity = std::max(windows_[s].capacity, need[s] - sizeof(SizeWord));
    capacity_here[s] = windows_[s].capacity;
  }
  net::mpi_check(
      MPI_Alltoall(capacity_here.data(), 1, MPI_UINT64_T, capacity_there.data(), 1, MPI_UINT64_T, plumbing_.comm()),
      "MPI_Alltoall");
  for (std::size_t r = 0; r < ranks; ++r) remote_capacity_[r] = static_cast<std::size_t>(capacity_there[r]);
}

void RmaChannel::open_epochs(std::vector<rank_t> to, std::vector<rank_t> from) {
  // Expose each source's buffer to that source alone, so its window completes on its own.
  for (rank_t source : from) {
    net::mpi_check(MPI_Win_post(group_of({source}), 0, windows_[static_cast<std::size_t>(source)].win), "MPI_Win_post");
    exposed_.push_back(source);
  }
  if (!to.empty()) {
    puts_left_ = to.size();
    std::sort(to.begin(), to.end());
    net::mpi_check(MPI_Win_start(group_of(std::move(to)), 0, windows_[static_cast<std::size_t>(plumbing_.rank())].win),
                   "MPI_Win_start");
  }
}

void RmaChannel::put(rank_t peer, Bytes message) {
  const MPI_Win win = windows_[static_cast<std::size_t>(plumbing_.rank())].win;
  const SizeWord size = message.size();
  // The size word's origin must outlive the put as the message's does: a slot rewritten next phase,
  // or, when puts outlive their epoch, a buffer held with the message.
  std::byte* word = reinterpret_cast<std::byte*>(&size_words_[static_cast<std::size_t>(peer)]);
  if (hold_sent_) {
    in_flight_.push_back(plumbing_.pool().acquire(sizeof size));
    in_flight_.back().resize(sizeof size);
    word = in_flight_.back().data();
  }
  std::memcpy(word, &size, sizeof size);
  net::mpi_check(MPI_Put(word, sizeof size, MPI_BYTE, peer, 0, sizeof size, MPI_BYTE, win), "MPI_Put");
  if (!message.empty()) {
    const int count = net::mpi_count(message.size(), "a message");
    net::mpi_check(MPI_Put(message.data(), count, MPI_BYTE, peer, sizeof size, count, MPI_BYTE, win), "MPI_Put");
  }
  in_flight_.push_back(std::move(message));
  if (--puts_left_ > 0) return;
  net::mpi_check(MPI_Win_complete(win), "MPI_Win_complete");
  if (hold_sent_) {
    std::lock_guard lock(held_mutex_);
    std::move(in_flight_.begin(), in_flight_.end(), std::back_inserter(held_));
  } else {
    for (auto& sent : in_flight_) plumbing_.pool().recycle(std::move(sent));
  }
  in_flight_.clear();
  access_done_.store(true, std::memory_order_release);
}

MPI_Group RmaChannel::group_of(std::vector<rank_t> ranks) {
  auto [it, inserted] = groups_.try_emplace(std::move(ranks), MPI_GROUP_NULL);
  if (inserted)
    net::mpi_check(MPI_Group_incl(everyone_, static_cast<int>(it->first.size()), it->first.data(), &it->second),
                   "MPI_Group_incl");
  return it->second;
}

void RmaChannel::close() {
  for (Window& window : windows_)
    if (window.win != MPI_WIN_NULL) {
      net::mpi_check(MPI_Win_free(&window.win), "MPI_Win_free");
      plumbing_.pool().remove_fixed(window.bytes);
    }
  for (auto& [ranks, group] : groups_) MPI_Group_free(&group);
  groups_.clear();
  if (everyone_ != MPI_GROUP_NULL) MPI_Group_free(&everyone_);
}

}  // namespace

std::unique_ptr<MpiRmaChannel> MpiRmaChannel::create(MPI_Comm comm) { return std::make_unique<RmaChannel>(comm); }

}  // namespace courier::sync
