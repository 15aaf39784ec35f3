#include "courier/net/mpi_device.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cstring>
#include <functional>
#include <thread>
#include <vector>

#include "../request_slots.hpp"
#include "courier/core/error.hpp"
#include "courier/net/mpi_check.hpp"
#include "courier/net/mpi_rank_nodes.hpp"
#include "tag_pool.hpp"

namespace courier::net {
namespace {

constexpr int frame_tag = 0;

// Every request the device owns sits in one array, cut into four ranges, one per kind of request.
// progress() tests only what can have completed: the receive at the head of the ring (MPI matches
// identical receives in the order they were started, so frames fill the ring in order), and, when
// any is busy, the sends, puts and exposed regions up to the last busy one, in one MPI_Testsome.
// On the latency path that is two MPI_Test, of which only the first runs MPI's progress, instead
// of a sweep over every pre-posted receive.
class MpiDevice final : public Device {
 public:
  explicit MpiDevice(const MpiDeviceOptions& options)
      : options_(options),
        receive_begin_(0),
        send_begin_(receive_begin_ + options.receive_buffers),
        put_begin_(send_begin_ + options.send_buffers),
        expose_begin_(put_begin_ + options.max_puts),
        request_count_(expose_begin_ + options.max_exposed),
        requests_(request_count_, MPI_REQUEST_NULL),
        completed_(request_count_),
        statuses_(request_count_),
        receive_buffers_(options.receive_buffers * options.max_frame_bytes),
        send_buffers_(options.send_buffers * options.max_frame_bytes),
        free_sends_(options.send_buffers),
        free_puts_(options.max_puts),
        free_exposes_(options.max_exposed),
        put_contexts_(options.max_puts),
        expose_contexts_(options.max_exposed),
        expose_tags_(options.max_exposed),
        tags_(query_tag_ub()) {
    mpi_check(MPI_Comm_dup(options.comm, &comm_), "MPI_Comm_dup");
    mpi_check(MPI_Comm_set_errhandler(comm_, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler");
    mpi_check(MPI_Comm_rank(comm_, &rank_), "MPI_Comm_rank");
    mpi_check(MPI_Comm_size(comm_, &size_), "MPI_Comm_size");
    rank_nodes_ = mpi_rank_nodes(comm_);
    for (std::size_t i = 0; i < options.receive_buffers; ++i) {
      MPI_Request& request = requests_[receive_begin_ + i];
      mpi_check(MPI_Recv_init(receive_buffer(i), frame_int(), MPI_BYTE, MPI_ANY_SOURCE, frame_tag,
                              comm_, &request),
                "MPI_Recv_init");
      mpi_check(MPI_Start(&request), "MPI_Start");
    }
  }

  ~MpiDevice() override { shut_down(); }

  static void validate(const MpiDeviceOptions& options);

  rank_t rank() const override { return rank_; }
  rank_t ranks() const override { return size_; }
  std::string name() const override { return "mpi"; }
  std::size_t max_frame_bytes() const override { return options_.max_frame_bytes; }
  std::vector<int> rank_nodes() const override { return rank_nodes_; }

  Post try_send(rank_t dest, std::span<const std::byte> frame) override {
    check_rank(dest, "try_send");
    if (frame.size() > options_.max_frame_bytes) {
      throw Error(fmt::format("mpi device: a frame of {} bytes exceeds max_frame_bytes ({}); split "
                              "it or raise MpiDeviceOptions::max_frame_bytes",
                              frame.size(), options_.max_frame_bytes));
    }
    if (free_sends_.full()) return Post::retry;
    std::size_t slot = free_sends_.take();
    std::byte* buffer = send_buffer(slot);
    std::memcpy(buffer, frame.data(), frame.size());
    MPI_Request& request = requests_[send_begin_ + slot];
    int code = MPI_Isend(buffer, static_cast<int>(frame.size()), MPI_BYTE, dest, frame_tag, comm_, &request);
    if (code != MPI_SUCCESS) {
      free_sends_.give(slot);
      throw_mpi_error(code, "MPI_Isend (frame)");
    }
    return Post::done;
  }

  Post try_expose(rank_t origin, std::span<std::byte> region, std::uint64_t context,
                  RemoteRegion& named) override {
    check_rank(origin, "try_expose");
    check_put_size(region.size());
    if (free_exposes_.full()) return Post::retry;
    std::size_t slot = free_exposes_.take();
    int tag = tags_.acquire();
    int code = MPI_Irecv(region.data(), static_cast<int>(region.size()), MPI_BYTE, origin, tag,
                         comm_, &requests_[expose_begin_ + slot]);
    if (code != MPI_SUCCESS) {
      tags_.release(tag);
      free_exposes_.give(slot);
      throw_mpi_error(code, "MPI_Irecv (exposed region)");
    }
    expose_contexts_[slot] = context;
    expose_tags_[slot] = tag;
    named = RemoteRegion{0, static_cast<std::uint64_t>(tag), region.size()};
    return Post::posted;
  }

  Post try_put(rank_t target, const RemoteRegion& region, std::span<const std::byte> data,
               std::uint64_t context) override {
    check_rank(target, "try_put");
    if (data.size() != region.bytes) {
      throw Error(fmt::format("mpi device: a put of {} bytes into a region of {} bytes; a put must "
                              "fill the region it was exposed for exactly",
                              data.size(), region.bytes));
    }
    if (free_puts_.full()) return Post::retry;
    std::size_t slot = free_puts_.take();
    int code = MPI_Isend(data.data(), static_cast<int>(data.size()), MPI_BYTE, target,
                         static_cast<int>(region.key), comm_, &requests_[put_begin_ + slot]);
    if (code != MPI_SUCCESS) {
      free_puts_.give(slot);
      throw_mpi_error(code, "MPI_Isend (put)");
    }
    put_contexts_[slot] = context;
    return Post::posted;
  }

  std::size_t progress(EventSink& sink) override {
    std::size_t events = 0;
    for (std::size_t n = 0; n < options_.receive_buffers; ++n) {
      int arrived = 0;
      MPI_Status status;
      mpi_check(MPI_Test(&requests_[receive_begin_ + next_receive_], &arrived, &status), "MPI_Test");
      if (!arrived) break;
      const std::size_t slot = next_receive_;
      next_receive_ = next_receive_ + 1 == options_.receive_buffers ? 0 : next_receive_ + 1;
      deliver_frame(slot, status, sink);
      ++events;
    }
    // After the receives: the MPI progress their test ran has usually completed these, so they
    // are found done without running MPI's progress a second time. The latency path has one
    // send in flight and nothing else: one MPI_Test.
    const std::size_t end = busy_end();
    if (end <= put_begin_ && free_sends_.busy_count() == 1) {  // that one send, nothing else
      int sent = 0;
      mpi_check(MPI_Test(&requests_[end - 1], &sent, MPI_STATUS_IGNORE), "MPI_Test");
      if (sent) free_sends_.give(end - 1 - send_begin_);
    } else if (end > send_begin_) {
      int count = 0;
      mpi_check(MPI_Testsome(static_cast<int>(end - send_begin_), requests_.data() + send_begin_, &count,
                             completed_.data(), statuses_.data()),
                "MPI_Testsome");
      for (int i = 0; i < count && count != MPI_UNDEFINED; ++i) {
        events += finish(send_begin_ + static_cast<std::size_t>(completed_[i]), sink);
      }
    }
    return events;
  }

  void barrier() override { mpi_check(MPI_Barrier(comm_), "MPI_Barrier"); }

 private:
  static int query_tag_ub() {
    int* value = nullptr;
    int found = 0;
    mpi_check(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &value, &found), "MPI_Comm_get_attr(MPI_TAG_UB)");
    // The standard guarantees at least 32767.
    return found && value ? *value : 32767;
  }

  void check_rank(rank_t rank, const char* call) const {
    if (rank < 0 || rank >= size_) {
      throw Error(fmt::format("mpi device: {} to rank {}, but ranks are 0..{}", call, rank,
                              size_ - 1));
    }
  }

  static void check_put_size(std::size_t bytes) {
    if (bytes > static_cast<std::size_t>(INT_MAX)) {
      throw Error(fmt::format("mpi device: a put of {} bytes exceeds the {} bytes one MPI message "
                              "carries; split it",
                              bytes, INT_MAX));
    }
  }

  void deliver_frame(std::size_t slot, const MPI_Status& status, EventSink& sink) {
    int bytes = 0;
    mpi_check(MPI_Get_count(&status, MPI_BYTE, &bytes), "MPI_Get_count");
    sink.on_frame(status.MPI_SOURCE,
                  std::span<const std::byte>(receive_buffer(slot), static_cast<std::size_t>(bytes)));
    mpi_check(MPI_Start(&requests_[receive_begin_ + slot]), "MPI_Start");
  }

  // One past the last busy send, put or exposed region (send_begin_ when none is busy).
  std::size_t busy_end() const {
    if (free_exposes_.end() > 0) return expose_begin_ + free_exposes_.end();
    if (free_puts_.end() > 0) return put_begin_ + free_puts_.end();
    return send_begin_ + free_sends_.end();
  }

  // A send, put or exposed region completed: free its slot and report it; returns events reported.
  std::size_t finish(std::size_t index, EventSink& sink) {
    if (index < put_begin_) {
      free_sends_.give(index - send_begin_);
      return 0;
    }
    if (index < expose_begin_) {
      const std::size_t slot = index - put_begin_;
      free_puts_.give(slot);
      sink.on_put_sent(put_contexts_[slot]);
      return 1;
    }
    const std::size_t slot = index - expose_begin_;
    tags_.release(expose_tags_[slot]);
    free_exposes_.give(slot);
    sink.on_put_arrived(expose_contexts_[slot]);
    return 1;
  }

  int frame_int() const { return static_cast<int>(options_.max_frame_bytes); }
  std::byte* receive_buffer(std::size_t slot) {
    return receive_buffers_.data() + slot * options_.max_frame_bytes;
  }
  std::byte* send_buffer(std::size_t slot) {
    return send_buffers_.data() + slot * options_.max_frame_bytes;
  }

  // Receives are cancelled; sends are given a while to finish (receivers pre-post, so they do
  // unless a peer is gone), then abandoned with their buffers leaked rather than freed under MPI.
  void shut_down() noexcept {
    for (std::size_t i = 0; i < request_count_; ++i) {
      bool is_receive = i < send_begin_ || i >= expose_begin_;
      if (is_receive && requests_[i] != MPI_REQUEST_NULL) {
        MPI_Cancel(&requests_[i]);
        MPI_Wait(&requests_[i], MPI_STATUS_IGNORE);
        if (requests_[i] != MPI_REQUEST_NULL) MPI_Request_free(&requests_[i]);
      }
    }
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    for (int round = 0;; ++round) {
      int all_done = 0;
      MPI_Testall(static_cast<int>(request_count_), requests_.data(), &all_done,
                  MPI_STATUSES_IGNORE);
      if (all_done) break;
      if (std::chrono::steady_clock::now() > deadline) {
        for (MPI_Request& request : requests_) {
          if (request != MPI_REQUEST_NULL) MPI_Request_free(&request);
        }
        new std::vector<std::byte>(std::move(send_buffers_));  // deliberately leaked, see above
        break;
      }
      if (round < 64) {
        std::this_thread::yield();
      } else {
        std::this_thread::sleep_for(std::chrono::microseconds(100));
      }
    }
    MPI_Comm_free(&comm_);
  }

  MpiDeviceOptions options_;
  std::vector<int> rank_nodes_;
  MPI_Comm comm_ = MPI_COMM_NULL;
  int rank_ = 0;
  int size_ = 0;

  std::size_t receive_begin_, send_begin_, put_begin_, expose_begin_, request_count_;
  std::size_t next_receive_ = 0;  // the receive MPI fills next
  std::vector<MPI_Request> requests_;
  std::vector<int> completed_;
  std::vector<MPI_Status> statuses_;

  std::vector<std::byte> receive_buffers_;
  std::vector<std::byte> send_buffers_;
  detail::RequestSlots free_sends_, free_puts_, free_exposes_;  // which send, put and expose slots are busy
  std::vector<std::uint64_t> put_contexts_;
  std::vector<std::uint64_t> expose_contexts_;
  std::vector<int> expose_tags_;
  detail::TagPool tags_;
};

void MpiDevice::validate(const MpiDeviceOptions& options) {
  if (options.max_frame_bytes == 0 || options.max_frame_bytes > INT_MAX) {
    throw Error(fmt::format("mpi device: max_frame_bytes must be in 1..{}, not {}", INT_MAX,
                            options.max_frame_bytes));
  }
  if (options.receive_buffers == 0 || options.send_buffers == 0 || options.max_puts == 0 ||
      options.max_exposed == 0) {
    throw Error("mpi device: receive_buffers, send_buffers, max_puts and max_exposed must be > 0");
  }
  // Open tags stay well below the tag space so that TagPool::acquire finds one at once.
  if (options.max_exposed > static_cast<std::size_t>(query_tag_ub()) / 2) {
    throw Error(fmt::format("mpi device: max_exposed ({}) must be at most half of MPI_TAG_UB",
                            options.max_exposed));
  }
}

}  // namespace

std::unique_ptr<Device> make_mpi_device(const MpiDeviceOptions& options) {
  int initialised = 0;
  mpi_check(MPI_Initialized(&initialised), "MPI_Initialized");
  if (!initialised) {
    throw Error("mpi device: MPI is not initialised; create a net::MpiEnvironment first");
  }
  MpiDevice::validate(options);
  return std::make_unique<MpiDevice>(options);
}

}  // namespace courier::net
