#include "courier/net/ofi_device.hpp"

#include <fmt/format.h>
#include <rdma/fi_errno.h>
#include <rdma/fi_rma.h>
#include <rdma/fi_tagged.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <thread>
#include <unordered_map>
#include <vector>

#include "../request_slots.hpp"
#include "courier/core/error.hpp"
#include "courier/net/mpi_check.hpp"
#include "courier/net/mpi_rank_nodes.hpp"
#include "ofi_check.hpp"
#include "ofi_fabric.hpp"
#include "ofi_library.hpp"

namespace courier::net {
namespace {

using detail::ofi_check;
using detail::ofi_library;

// Frames travel with tag 0 behind a small header naming their source rank. (The rank is not
// put into the tag with an ignore mask: the shm provider of libfabric 1.17 loses messages that
// way once they arrive before their receive is posted.) A tagged put carries its region's id
// with bit 63 set, so it never matches a frame receive.
constexpr std::uint64_t frame_tag = 0;
constexpr std::uint64_t put_tag_bit = 1ull << 63;
struct FrameHeader {
  std::int32_t source;
  std::uint32_t unused;  // keeps the payload 8-byte aligned
};
constexpr std::size_t header_bytes = sizeof(FrameHeader);

// A duplicate of the caller's communicator, freed last (after the endpoint closed).
class OwnedComm {
 public:
  explicit OwnedComm(MPI_Comm comm) {
    int initialised = 0;
    mpi_check(MPI_Initialized(&initialised), "MPI_Initialized");
    if (!initialised) {
      throw Error("ofi device: MPI is not initialised; create a net::MpiEnvironment first (the "
                  "ofi device exchanges endpoint addresses through MPI)");
    }
    mpi_check(MPI_Comm_dup(comm, &comm_), "MPI_Comm_dup");
    mpi_check(MPI_Comm_set_errhandler(comm_, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler");
  }
  ~OwnedComm() { MPI_Comm_free(&comm_); }
  OwnedComm(const OwnedComm&) = delete;
  OwnedComm& operator=(const OwnedComm&) = delete;
  operator MPI_Comm() const { return comm_; }

 private:
  MPI_Comm comm_ = MPI_COMM_NULL;
};

// Like the mpi device, every operation has a slot in one of four ranges of one array; here the
// array holds each operation's fi_context2, and a completion's op_context points back into it.
class OfiDevice final : public Device {
 public:
  explicit OfiDevice(const OfiDeviceOptions& options)
      : options_(options),
        send_begin_(options.receive_buffers),
        put_begin_(send_begin_ + options.send_buffers),
        expose_begin_(put_begin_ + options.max_puts),
        operation_count_(expose_begin_ + options.max_exposed),
        comm_(options.comm),
        fabric_(options, comm_, operation_count_ + 16),
        contexts_(operation_count_),
        buffer_bytes_(header_bytes + options.max_frame_bytes),
        receive_buffers_(options.receive_buffers * buffer_bytes_),
        send_buffers_(options.send_buffers * buffer_bytes_),
        sends_(options.send_buffers),
        puts_(options.max_puts),
        exposes_(options.max_exposed),
        put_contexts_(options.max_puts),
        put_registrations_(options.max_puts),
        expose_contexts_(options.max_exposed),
        expose_registrations_(options.max_exposed),
        posted_receives_(options.receive_buffers, false) {
    mpi_check(MPI_Comm_rank(comm_, &rank_), "MPI_Comm_rank");
    mpi_check(MPI_Comm_size(comm_, &size_), "MPI_Comm_size");
    rank_nodes_ = mpi_rank_nodes(comm_);
    if (buffer_bytes_ > fabric_.max_message_bytes()) {
      throw Error(fmt::format("ofi device: max_frame_bytes ({}) exceeds provider {}'s largest "
                              "message ({} bytes)",
                              options.max_frame_bytes, fabric_.provider(),
                              fabric_.max_message_bytes()));
    }
    receive_registration_ =
        fabric_.register_local(receive_buffers_.data(), receive_buffers_.size(), FI_RECV);
    send_registration_ = fabric_.register_local(send_buffers_.data(), send_buffers_.size(), FI_SEND);
    for (std::size_t slot = 0; slot < options.receive_buffers; ++slot) {
      if (!post_receive(slot)) {
        throw Error(fmt::format("ofi device: provider {} cannot pre-post {} receives; lower "
                                "OfiDeviceOptions::receive_buffers",
                                fabric_.provider(), options.receive_buffers));
      }
    }
    // No frame may leave before every rank has its receives posted.
    barrier();
  }

  ~OfiDevice() override { shut_down(); }

  rank_t rank() const override { return rank_; }
  rank_t ranks() const override { return size_; }
  std::string name() const override { return "ofi"; }
  std::vector<int> rank_nodes() const override { return rank_nodes_; }
  std::size_t max_frame_bytes() const override { return options_.max_frame_bytes; }
  OfiDescription description() const { return {fabric_.provider(), fabric_.rma()}; }

  Post try_send(rank_t dest, std::span<const std::byte> frame) override {
    check_rank(dest, "try_send");
    if (frame.size() > options_.max_frame_bytes) {
      throw Error(fmt::format("ofi device: a frame of {} bytes exceeds max_frame_bytes ({}); split "
                              "it or raise OfiDeviceOptions::max_frame_bytes",
                              frame.size(), options_.max_frame_bytes));
    }
    if (sends_.full()) return Post::retry;
    std::size_t slot = sends_.take();
    std::byte* buffer = send_buffer(slot);
    FrameHeader header{rank_, 0};
    std::memcpy(buffer, &header, header_bytes);
    std::copy(frame.begin(), frame.end(), buffer + header_bytes);
    ssize_t code = fi_tsend(fabric_.endpoint(), buffer, header_bytes + frame.size(),
                            send_registration_.desc(), fabric_.address_of(dest), frame_tag,
                            &contexts_[send_begin_ + slot]);
    if (code != 0) {
      sends_.give(slot);
      if (code == -FI_EAGAIN) return Post::retry;
      ofi_check(code, "fi_tsend (frame)");
    }
    return Post::done;
  }

  Post try_expose(rank_t origin, std::span<std::byte> region, std::uint64_t context,
                  RemoteRegion& named) override {
    check_rank(origin, "try_expose");
    if (exposes_.full()) return Post::retry;
    std::size_t slot = exposes_.take();
    // An empty region still needs an address to name; the scratch word serves every one of them.
    std::byte* where = region.empty() ? scratch_ : region.data();
    try {
      if (fabric_.rma()) {
        detail::Registration registration =
            fabric_.register_remote(where, std::max<std::size_t>(region.size(), 1));
        std::uint64_t key = registration.key();
        check_key_fits(key);
        named = RemoteRegion{fabric_.remote_address(where), key, region.size()};
        expose_registrations_[slot] = std::move(registration);
        slot_of_key_[key] = slot;
      } else {
        detail::Registration registration =
            fabric_.register_local(where, std::max<std::size_t>(region.size(), 1), FI_RECV);
        std::uint64_t tag = put_tag_bit | next_put_id_++;
        ssize_t code = fi_trecv(fabric_.endpoint(), where, region.size(), registration.desc(),
                                FI_ADDR_UNSPEC, tag, 0, &contexts_[expose_begin_ + slot]);
        if (code == -FI_EAGAIN) {
          exposes_.give(slot);
          return Post::retry;
        }
        ofi_check(code, "fi_trecv (exposed region)");
        named = RemoteRegion{0, tag, region.size()};
        expose_registrations_[slot] = std::move(registration);
      }
    } catch (...) {
      exposes_.give(slot);
      throw;
    }
    expose_contexts_[slot] = context;
    return Post::posted;
  }

  Post try_put(rank_t target, const RemoteRegion& region, std::span<const std::byte> data,
               std::uint64_t context) override {
    check_rank(target, "try_put");
    if (data.size() != region.bytes) {
      throw Error(fmt::format("ofi device: a put of {} bytes into a region of {} bytes; a put must "
                              "fill the region it was exposed for exactly",
                              data.size(), region.bytes));
    }
    if (puts_.full()) return Post::retry;
    std::size_t slot = puts_.take();
    const void* source = data.empty() ? static_cast<const void*>(scratch_) : data.data();
    ssize_t code = 0;
    try {
      detail::Registration registration = fabric_.register_local(
          source, std::max<std::size_t>(data.size(), 1), fabric_.rma() ? FI_WRITE : FI_SEND);
      if (fabric_.rma()) {
        code = fi_writedata(fabric_.endpoint(), source, data.size(), registration.desc(),
                            region.key, fabric_.address_of(target), region.address, region.key,
                            &contexts_[put_begin_ + slot]);
      } else {
        code = fi_tsend(fabric_.endpoint(), source, data.size(), registration.desc(),
                        fabric_.address_of(target), region.key, &contexts_[put_begin_ + slot]);
      }
      if (code == 0) put_registrations_[slot] = std::move(registration);
    } catch (...) {
      puts_.give(slot);
      throw;
    }
    if (code != 0) {
      puts_.give(slot);
      if (code == -FI_EAGAIN) return Post::retry;
      ofi_check(code, fabric_.rma() ? "fi_writedata (put)" : "fi_tsend (put)");
    }
    put_contexts_[slot] = context;
    return Post::posted;
  }

  std::size_t progress(EventSink& sink) override {
    std::size_t events = 0;
    fi_cq_tagged_entry entries[16];
    for (;;) {
      ssize_t count = fi_cq_read(fabric_.completions(), entries, 16);
      if (count == -FI_EAGAIN) break;
      if (count == -FI_EAVAIL) {
        report_failure();
        continue;
      }
      ofi_check(count, "fi_cq_read");
      for (ssize_t i = 0; i < count; ++i) events += complete(entries[i], &sink);
      if (count < 16) break;
    }
    repost_receives();
    return events;
  }

  void barrier() override { mpi_check(MPI_Barrier(comm_), "MPI_Barrier"); }

 private:
  void check_rank(rank_t rank, const char* call) const {
    if (rank < 0 || rank >= size_) {
      throw Error(fmt::format("ofi device: {} to rank {}, but ranks are 0..{}", call, rank,
                              size_ - 1));
    }
  }

  // The key travels back as remote CQ data, which may be narrower than 64 bits.
  void check_key_fits(std::uint64_t key) const {
    std::size_t bytes = fabric_.cq_data_bytes();
    if (bytes < 8 && (key >> (8 * bytes)) != 0) {
      throw Error(fmt::format("ofi device: provider {} hands out memory keys wider than its {} "
                              "bytes of remote CQ data; use OfiPuts::tagged",
                              fabric_.provider(), bytes));
    }
  }

  bool post_receive(std::size_t slot) {
    ssize_t code = fi_trecv(fabric_.endpoint(), receive_buffer(slot), buffer_bytes_,
                            receive_registration_.desc(), FI_ADDR_UNSPEC, frame_tag, 0,
                            &contexts_[slot]);
    if (code == -FI_EAGAIN) return false;
    ofi_check(code, "fi_trecv (frame)");
    posted_receives_[slot] = true;
    return true;
  }

  // Receives the provider could not take back at once are posted again on later progress.
  void repost_receives() {
    while (!unposted_.empty()) {
      if (!post_receive(unposted_.back())) return;
      unposted_.pop_back();
    }
  }

  // Handles one completion; `sink` is null while shutting down. Returns the events reported.
  std::size_t complete(const fi_cq_tagged_entry& entry, EventSink* sink) {
    if ((entry.flags & FI_REMOTE_CQ_DATA) && (entry.flags & FI_REMOTE_WRITE)) {
      auto found = slot_of_key_.find(entry.data);
      if (found == slot_of_key_.end()) {
        throw Error(fmt::format("ofi device: a put arrived for unknown region key {}", entry.data));
      }
      std::size_t slot = found->second;
      slot_of_key_.erase(found);
      return finish_expose(slot, sink);
    }
    std::size_t index = static_cast<std::size_t>(static_cast<fi_context2*>(entry.op_context) -
                                                 contexts_.data());
    if (index < send_begin_) {
      posted_receives_[index] = false;
      if (sink) {
        if (entry.len < header_bytes) {
          throw Error(fmt::format("ofi device: a {}-byte message without a frame header arrived",
                                  entry.len));
        }
        FrameHeader header;
        std::memcpy(&header, receive_buffer(index), header_bytes);
        sink->on_frame(header.source, std::span<const std::byte>(receive_buffer(index) + header_bytes,
                                                                 entry.len - header_bytes));
      }
      if (!post_receive(index)) unposted_.push_back(index);
      return sink ? 1 : 0;
    }
    if (index < put_begin_) {
      sends_.give(index - send_begin_);
      return 0;
    }
    if (index < expose_begin_) {
      std::size_t slot = index - put_begin_;
      put_registrations_[slot].reset();
      puts_.give(slot);
      if (sink) sink->on_put_sent(put_contexts_[slot]);
      return sink ? 1 : 0;
    }
    return finish_expose(index - expose_begin_, sink);
  }

  std::size_t finish_expose(std::size_t slot, EventSink* sink) {
    expose_registrations_[slot].reset();
    exposes_.give(slot);
    if (sink) sink->on_put_arrived(expose_contexts_[slot]);
    return sink ? 1 : 0;
  }

  // Cancelled operations (at shut-down) are expected; anything else is an error.
  void report_failure() {
    fi_cq_err_entry failure{};
    ssize_t code = fi_cq_readerr(fabric_.completions(), &failure, 0);
    if (code == -FI_EAGAIN) return;
    ofi_check(code, "fi_cq_readerr");
    if (failure.err == FI_ECANCELED) return;
    char text[256] = {};
    const char* detail = fi_cq_strerror(fabric_.completions(), failure.prov_errno,
                                        failure.err_data, text, sizeof text);
    throw Error(
        fmt::format("ofi device: an operation failed on provider {}: {} ({}); check that "
                    "every rank runs the same provider (FI_PROVIDER)",
                    fabric_.provider(), ofi_library().strerror(failure.err), detail ? detail : ""));
  }

  // Receives are cancelled; sends and puts get a while to finish (receivers pre-post, so they do
  // unless a peer is gone). Then the endpoint closes and takes whatever is left with it.
  void shut_down() noexcept {
    try {
      for (std::size_t slot = 0; slot < posted_receives_.size(); ++slot) {
        if (posted_receives_[slot]) fi_cancel(&fabric_.endpoint()->fid, &contexts_[slot]);
      }
      if (!fabric_.rma()) {
        for (std::size_t slot = 0; slot < options_.max_exposed; ++slot) {
          fi_cancel(&fabric_.endpoint()->fid, &contexts_[expose_begin_ + slot]);
        }
      }
      unposted_.clear();
      auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
      for (int round = 0; sends_.end() > 0 || puts_.end() > 0; ++round) {
        if (std::chrono::steady_clock::now() > deadline) break;
        fi_cq_tagged_entry entries[16];
        ssize_t count = fi_cq_read(fabric_.completions(), entries, 16);
        if (count == -FI_EAVAIL) {
          fi_cq_err_entry failure{};
          fi_cq_readerr(fabric_.completions(), &failure, 0);
        }
        for (ssize_t i = 0; i < count; ++i) {
          std::size_t index = static_cast<std::size_t>(
              static_cast<fi_context2*>(entries[i].op_context) - contexts_.data());
          if (index >= send_begin_ && index < put_begin_) sends_.give(index - send_begin_);
          if (index >= put_begin_ && index < expose_begin_) puts_.give(index - put_begin_);
        }
        if (count <= 0 && round > 64) std::this_thread::sleep_for(std::chrono::microseconds(100));
      }
    } catch (...) {
      // Shutting down: nothing useful to do with a failure here.
    }
    for (auto& registration : put_registrations_) registration.reset();
    for (auto& registration : expose_registrations_) registration.reset();
  }

  std::byte* receive_buffer(std::size_t slot) {
    return receive_buffers_.data() + slot * buffer_bytes_;
  }
  std::byte* send_buffer(std::size_t slot) { return send_buffers_.data() + slot * buffer_bytes_; }

  OfiDeviceOptions options_;
  std::size_t send_begin_, put_begin_, expose_begin_, operation_count_;
  OwnedComm comm_;
  detail::OfiFabric fabric_;
  int rank_ = 0;
  int size_ = 0;
  std::vector<int> rank_nodes_;  // as the launcher placed the ranks (the shared-memory split)

  std::vector<fi_context2> contexts_;
  std::size_t buffer_bytes_;  // a frame and its header
  std::vector<std::byte> receive_buffers_;
  std::vector<std::byte> send_buffers_;
  detail::Registration receive_registration_;
  detail::Registration send_registration_;
  alignas(8) std::byte scratch_[8] = {};

  detail::RequestSlots sends_, puts_, exposes_;
  std::vector<std::uint64_t> put_contexts_;
  std::vector<detail::Registration> put_registrations_;
  std::vector<std::uint64_t> expose_contexts_;
  std::vector<detail::Registration> expose_registrations_;
  std::unordered_map<std::uint64_t, std::size_t> slot_of_key_;  // RMA: region key -> expose slot
  std::uint64_t next_put_id_ = 1;                               // tagged puts: region ids
  std::vector<bool> posted_receives_;
  std::vector<std::size_t> unposted_;
};

void validate(const OfiDeviceOptions& options) {
  if (options.max_frame_bytes == 0) throw Error("ofi device: max_frame_bytes must be > 0");
  if (options.receive_buffers == 0 || options.send_buffers == 0 || options.max_puts == 0 ||
      options.max_exposed == 0) {
    throw Error("ofi device: receive_buffers, send_buffers, max_puts and max_exposed must be > 0");
  }
}

}  // namespace

std::unique_ptr<Device> make_ofi_device(const OfiDeviceOptions& options) {
  validate(options);
  return std::make_unique<OfiDevice>(options);
}

OfiDescription describe_ofi_device(const Device& device) {
  const auto* ofi = dynamic_cast<const OfiDevice*>(&device);
  if (!ofi) throw Error("describe_ofi_device: the device is " + device.name() + ", not ofi");
  return ofi->description();
}

}  // namespace courier::net
