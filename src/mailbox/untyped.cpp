// The untyped mailbox: batches, exchanges, forwarding and broadcasts. Termination is in
// termination.cpp, the routing tables in routes.cpp.
#include "courier/mailbox/untyped.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>

#include "courier/comm/buffer_pool.hpp"
#include "courier/core/backoff.hpp"
#include "courier/core/cancel.hpp"
#include "courier/core/error.hpp"
#include "courier/mailbox/codec.hpp"
#include "courier/mailbox/routes.hpp"
#include "flow.hpp"
#include "termination.hpp"

namespace courier::mailbox::detail {

namespace {

Topology topology_for(comm::Runtime& runtime, const Config& config) {
  if (config.layout) return Topology::from_layout(*config.layout, runtime.ranks(), runtime.rank());
  return Topology::from_nodes(runtime.rank_nodes(), runtime.rank());
}

comm::EndpointOptions endpoint_options(comm::Allocator& allocator) {
  comm::EndpointOptions options;
  options.completion = comm::CompletionKind::queue;
  options.allocator = &allocator;
  return options;
}

// Sets a flag for the duration of a scope, also when a callback throws.
class BusyScope {
 public:
  explicit BusyScope(bool& flag) : flag_(flag) { flag_ = true; }
  ~BusyScope() { flag_ = false; }
  BusyScope(const BusyScope&) = delete;
  BusyScope& operator=(const BusyScope&) = delete;

 private:
  bool& flag_;
};

// Gives a received message's buffer back to its endpoint when the scope ends, also when a callback
// throws.
class ReleaseOnExit {
 public:
  ReleaseOnExit(comm::Endpoint& endpoint, const comm::Completion& completion)
      : endpoint_(endpoint), completion_(completion) {}
  ~ReleaseOnExit() { endpoint_.release(completion_); }
  ReleaseOnExit(const ReleaseOnExit&) = delete;
  ReleaseOnExit& operator=(const ReleaseOnExit&) = delete;

 private:
  comm::Endpoint& endpoint_;
  const comm::Completion& completion_;
};

constexpr comm::tag_t routed_tag = 1;  // the termination's control messages use 2 to 4
constexpr comm::tag_t direct_tag = 5;
// Completions taken in, and batches handled, before batches are flushed again. Taking in a whole
// queue's worth (4096) at once ran degree counting of kron:18 on 8 ranks about 20% slower (the
// batches go cold before they are handled); what waits in comm's queue beyond this is held back
// by comm itself once the queue is full.
constexpr std::size_t drain_batch = 64;
constexpr std::size_t relief_slice_bytes = 256;  // a received run is delivered in slices this big (a block)
constexpr std::size_t max_spares = 8;

// Where the mailbox's endpoints put arriving batches: pooled buffers, since batches are large and
// come at a steady rate. One pool serves every mailbox of the process because the runtime frees
// messages left in an endpoint when it shuts down, which may be after the mailbox is gone.
comm::Allocator& batch_allocator() {
  static comm::BufferPool pool(64);
  static comm::PooledAllocator allocator(pool);
  return allocator;
}

}  // namespace

Untyped::Untyped(comm::Runtime& runtime, const Config& config, std::size_t fixed_payload, Deliver deliver,
                 DeliverRun deliver_run, void* owner)
    : runtime_(runtime),
      endpoint_(runtime.create_endpoint(endpoint_options(batch_allocator()))),
      config_(config),
      topology_(topology_for(runtime, config)),
      fixed_payload_(fixed_payload),
      ranks_(static_cast<std::uint32_t>(topology_.ranks())),
      deliver_(deliver),
      deliver_run_(deliver_run),
      owner_(owner) {
  if (config.capacity_bytes == 0) {
    throw InputError(
        "mailbox: capacity 0 bytes; give at least 1 (messages are sent once this many bytes are buffered)");
  }
  relieve_at_ = config.capacity_bytes;
  const auto peers = static_cast<std::size_t>(ranks());
  next_hop_.resize(peers);
  hop_remote_.resize(peers);
  bcast_children_.resize(peers);
  windows_.resize(peers);
  direct_.resize(peers);
  routed_.resize(peers);
  listed_.resize(peers);
  for (rank_t r = 0; r < ranks(); ++r) {
    const auto i = static_cast<std::size_t>(r);
    next_hop_[i] = next_hop(topology_, config.routing, r);
    hop_remote_[i] = topology_.same_node(rank(), r) ? 0 : 1;
    bcast_children_[i] = detail::bcast_children(topology_, config.routing, r);
  }
  termination_ = std::make_unique<Termination>(endpoint_, rank(), ranks());
  flow_ =
      std::make_unique<Flow>(endpoint_, rank(), ranks(), config.pause_backlog_bytes, config.pause_backlog_bytes / 2);
  if (config.echo_config && rank() == 0) std::fprintf(stderr, "%s\n", describe(config, topology_).c_str());
}

Untyped::~Untyped() {
  for (const comm::Completion& c : backlog_) endpoint_.release(c);  // only if wait_empty was skipped
  // Rendezvous batches still in flight read from buffers this mailbox owns: wait for them (after
  // wait_empty only their completions are left), but never forever.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  Backoff backoff;
  while (!in_flight_.empty() && std::chrono::steady_clock::now() < deadline) {
    comm::Completion c;
    if (!endpoint_.poll(c)) {
      progress_if_needed();
      backoff.pause();
      continue;
    }
    if (c.op == comm::Op::send) {
      finish_send(static_cast<BatchBuffer*>(c.context));
    } else if (c.op == comm::Op::recv) {
      endpoint_.release(c);
    }
  }
  // Past the deadline the transport may still read them: leaking beats freeing under its feet.
  for (auto& batch : in_flight_) static_cast<void>(batch.release());
}

void Untyped::bad_destination(rank_t dest) const {
  throw InputError("mailbox: destination rank " + std::to_string(dest) + " is out of range; ranks are 0 to " +
                   std::to_string(ranks() - 1));
}

void bad_batch(std::size_t bytes) {
  throw Error("mailbox: a batch of " + std::to_string(bytes) +
              " bytes ends inside a record; every rank must use the same message type for this mailbox");
}

void Untyped::check_payload(std::size_t bytes) const {
  if (fixed_payload_ == 0 && bytes > 0xffffffffu) {
    throw InputError("mailbox: a message of " + std::to_string(bytes) +
                     " bytes exceeds the 4 GiB a record can carry; split it");
  }
}

void Untyped::bcast(const std::byte* payload, std::size_t bytes) {
  check_payload(bytes);
  const std::uint32_t header = bcast_bit | static_cast<std::uint32_t>(rank());
  // Every copy is appended before an exchange may start: the payload may live in scratch space.
  const auto copy = [&](std::byte* at) {
    if (bytes > 0) std::memcpy(at, payload, bytes);  // an empty payload may be null
  };
  copy(append(rank(), header, bytes));  // the origin hears it too
  for (rank_t child : bcast_children_[static_cast<std::size_t>(rank())]) copy(append(child, header, bytes));
  exchange_if_full();
}

void Untyped::settle(rank_t hop) {
  const auto h = static_cast<std::size_t>(hop);
  Window& window = windows_[h];
  if (window.end == nullptr) return;
  BatchBuffer& batch = direct_[h];
  const std::byte* start = batch.data() + batch.size();
  const auto used = static_cast<std::size_t>(window.cursor - start);
  batch.commit(used);
  buffered_ += used;
  window_bytes_ -= static_cast<std::size_t>(window.end - start);
  window = Window{};
}

void Untyped::close_windows() {
  for (rank_t hop : pending_) settle(hop);
}

std::byte* Untyped::append_direct_counted(rank_t hop) {
  const auto h = static_cast<std::size_t>(hop);
  BatchBuffer& batch = direct_[h];
  if (!listed_[h]) list(hop);
  settle(hop);
  const std::size_t record = fixed_payload_, capacity = config_.capacity_bytes;
  buffered_ += record;
  std::size_t window = 0;
  if (!busy_) {  // inside an exchange buffered_ stays exact: no windows
    if (buffered_ + window_bytes_ >= capacity) close_windows();
    if (buffered_ < capacity) {
      // An equal share, among the hops being filled, of what is left before the capacity (in
      // whole records). Windows shrink as the capacity nears, so an exchange takes a few dozen
      // of these slow appends (a simulation of random destinations: 18 per 8192 records to two
      // hops; half shares, tried before, took 32).
      const std::size_t left = capacity - 1 - buffered_ - window_bytes_;
      const std::size_t share = std::max(left / pending_.size(), record);
      window = std::min(share, left) / record * record;
    }
  }
  std::byte* at = batch.reserve_tail(record + window);
  batch.commit(record);
  if (window > 0) {
    windows_[h] = Window{at + record, at + record + window};
    window_bytes_ += window;
  }
  return at;
}

void Untyped::progress_if_needed() {
  if (!runtime_.options().progress_thread) runtime_.progress();
}

void Untyped::exchange() {
  close_windows();
  BusyScope busy(busy_);
  ++counters_.exchanges;
  Backoff backoff;
  for (;;) {
    const bool sent_all = flush();
    progress_if_needed();
    const std::size_t worked = drain(drain_batch);
    // Back pressure (flow.hpp): this rank's own sends go on once the buffers have room, little
    // waits to be handled, and no rank has asked this one to pause.
    const bool flow_sent = flow_->flush();
    if (buffered_ < config_.capacity_bytes && !flow_->backlogged(backlog_bytes_) && !flow_->paused()) return;
    if ((sent_all && flow_sent) || worked > 0) {
      backoff.reset();
    } else {
      progress_if_needed();
      backoff.pause();
    }
  }
}

bool Untyped::flush() {
  if (buffered_ > counters_.peak_buffered_bytes) counters_.peak_buffered_bytes = buffered_;
  relieve_at_ = config_.capacity_bytes;
  // The lists swap places and keep their storage: no allocation per exchange.
  flushing_.swap(pending_);
  bool sent_all = true, own = false;
  for (rank_t hop : flushing_) {
    listed_[static_cast<std::size_t>(hop)] = 0;  // appending from here on lists the hop again
    if (hop == rank()) {
      own = true;
      continue;
    }
    if (!send_hop(hop)) {
      sent_all = false;
      refused_.push_back(hop);
    }
  }
  flushing_.clear();
  for (rank_t hop : refused_) {
    if (!listed_[static_cast<std::size_t>(hop)]) list(hop);
  }
  refused_.clear();
  // This rank's own batches last: what their callbacks send is listed afresh, where relieve
  // finds it, instead of piling up on hops this loop had yet to reach.
  if (own) handle_own(rank());
  return sent_all;
}

std::unique_ptr<BatchBuffer> Untyped::take_spare() {
  if (spares_.empty()) return std::make_unique<BatchBuffer>();
  std::unique_ptr<BatchBuffer> spare = std::move(spares_.back());
  spares_.pop_back();
  return spare;
}

void Untyped::keep_spare(std::unique_ptr<BatchBuffer> batch) {
  batch->clear();  // its allocation stays, for the next batch
  if (spares_.size() < max_spares) spares_.push_back(std::move(batch));
}

void Untyped::finish_send(BatchBuffer* batch) {
  const auto it =
      std::find_if(in_flight_.begin(), in_flight_.end(), [batch](const auto& b) { return b.get() == batch; });
  if (it == in_flight_.end())
    throw Error("mailbox: the transport reported a send this mailbox did not post; this is a bug");
  in_flight_bytes_ -= batch->size();
  std::unique_ptr<BatchBuffer> done = std::move(*it);
  *it = std::move(in_flight_.back());
  in_flight_.pop_back();
  keep_spare(std::move(done));
}

bool Untyped::send_hop(rank_t hop) {
  if (hop == rank()) {
    handle_own(hop);
    return true;
  }
  const auto h = static_cast<std::size_t>(hop);
  const bool direct_sent = direct_[h].empty() || send_batch(hop, direct_[h], direct_tag);
  const bool routed_sent = routed_[h].empty() || send_batch(hop, routed_[h], routed_tag);
  return direct_sent && routed_sent;
}

void Untyped::handle_own(rank_t hop) {
  // Handled here and now, never through the transport (so never counted in flight). The batches
  // leave their slots first: the callbacks may send to this rank again.
  const auto h = static_cast<std::size_t>(hop);
  std::unique_ptr<BatchBuffer> direct = take_spare(), routed = take_spare();
  direct->swap(direct_[h]);
  routed->swap(routed_[h]);
  for (BatchBuffer* batch : {direct.get(), routed.get()}) {
    if (batch->empty()) continue;
    buffered_ -= batch->size();
    ++counters_.batches_local;
    const std::uint64_t records = records_in(*batch, batch == direct.get());
    counters_.messages_local += records;
    counters_.messages_self += records;
    counters_.bytes_local += batch->size();
  }
  if (!termination_->cancelling()) {
    if (!direct->empty()) counters_.messages_delivered += deliver_run(direct->data(), direct->size());
    if (!routed->empty()) handle_batch(routed->data(), routed->size());
  }
  keep_spare(std::move(direct));
  keep_spare(std::move(routed));
}

bool Untyped::send_batch(rank_t hop, BatchBuffer& batch, comm::tag_t tag) {
  const std::size_t bytes = batch.size();
  const std::size_t records = records_in(batch, tag == direct_tag);
  if (bytes <= runtime_.eager_limit()) {
    // Eager: the runtime copies the bytes, the batch is free again at once.
    if (endpoint_.send(hop, tag, {batch.data(), bytes}) == comm::Post::retry) {
      ++counters_.send_retries;
      return false;
    }
    batch.clear();
  } else {
    // Rendezvous: the bytes are read later, so the batch leaves its slot until Op::send.
    if (!in_flight_.empty() && in_flight_bytes_ + bytes > max_in_flight_capacities * config_.capacity_bytes) {
      ++counters_.send_retries;
      return false;
    }
    std::unique_ptr<BatchBuffer> moving = take_spare();
    moving->swap(batch);
    const comm::Post post = endpoint_.send(hop, tag, {moving->data(), bytes}, moving.get());
    if (post == comm::Post::retry) {
      moving->swap(batch);
      keep_spare(std::move(moving));
      ++counters_.send_retries;
      return false;
    }
    if (post == comm::Post::posted) {
      in_flight_bytes_ += bytes;
      counters_.peak_in_flight_bytes = std::max<std::uint64_t>(counters_.peak_in_flight_bytes, in_flight_bytes_);
      in_flight_.push_back(std::move(moving));
    } else {
      keep_spare(std::move(moving));
    }
  }
  buffered_ -= bytes;
  if (hop_remote_[static_cast<std::size_t>(hop)] != 0) {
    ++counters_.batches_remote;
    counters_.messages_remote += records;
    counters_.bytes_remote += bytes;
  } else {
    ++counters_.batches_local;
    counters_.messages_local += records;
    counters_.bytes_local += bytes;
  }
  termination_->count_sent();
  return true;
}

std::size_t Untyped::drain(std::size_t limit) {
  // What has arrived is taken in first, into the backlog, where it is counted and back pressure
  // (flow.hpp) sees it, however slowly this rank handles. Then handled in arrival order while
  // the buffers have room.
  std::size_t work = 0;
  comm::Completion c;
  while (work < limit && endpoint_.poll(c)) {
    ++work;
    take(c);
  }
  for (std::size_t handled = 0; handled < limit && !backlog_.empty() && buffered_ < config_.capacity_bytes;
       ++handled, ++work) {
    const comm::Completion next = backlog_.front();
    backlog_.pop_front();
    backlog_bytes_ -= next.size;
    flow_->on_drained(backlog_bytes_);
    handle_data(next);
  }
  return work;
}

void Untyped::take(const comm::Completion& c) {
  if (c.op == comm::Op::send) {
    finish_send(static_cast<BatchBuffer*>(c.context));
    return;
  }
  if (c.op != comm::Op::recv) return;
  if (c.tag == direct_tag || c.tag == routed_tag) {
    // Batches wait (in the memory they arrived in) until drain handles them: never inside the
    // handling of another (relieve), and not while the buffers are full, so that forwarding and
    // callbacks do not fill them further: buffered bytes stay within the capacity plus one
    // batch. Refused sends need only progress, never handling, to clear.
    backlog_.push_back(c);
    backlog_bytes_ += c.size;
    counters_.peak_backlog_bytes = std::max<std::uint64_t>(counters_.peak_backlog_bytes, backlog_bytes_);
    flow_->on_taken(backlog_bytes_);
    return;
  }
  const ReleaseOnExit release(endpoint_, c);
  if (Flow::is_flow(c.tag)) {
    flow_->on_message(c);
    return;
  }
  if (!Termination::is_control(c.tag)) {
    throw Error("mailbox: a message with unknown tag " + std::to_string(c.tag) + " arrived from rank " +
                std::to_string(c.rank) +
                " on the mailbox's endpoint; build mailboxes (and other endpoints) "
                "in the same order on every rank");
  }
  termination_->on_message(c);
}

void Untyped::handle_data(const comm::Completion& c) {
  const ReleaseOnExit release(endpoint_, c);
  if (termination_->cancelling()) {
    // The run is stopping: no callbacks, so no new work, and the epoch drains to its end.
  } else if (c.tag == direct_tag) {
    counters_.messages_delivered += deliver_run(c.data, c.size);
  } else {
    handle_batch(c.data, c.size);
  }
  termination_->count_received();
}

void Untyped::handle_batch(const std::byte* data, std::size_t bytes) {
  if (fixed_payload_ == 0) {
    handle_records<true>(data, bytes);
  } else {
    handle_records<false>(data, bytes);
  }
}

template <bool Sized>
void Untyped::handle_records(const std::byte* data, std::size_t bytes) {
  const std::byte* at = data;
  const std::byte* const end = data + bytes;
  const auto me = static_cast<std::uint32_t>(rank());
  while (at < end) {
    std::uint32_t header;
    std::memcpy(&header, at, sizeof header);
    at += sizeof header;
    std::size_t payload = fixed_payload_;
    if constexpr (Sized) {
      std::uint32_t size32;
      std::memcpy(&size32, at, sizeof size32);
      at += sizeof size32;
      payload = size32;
    }
    if (static_cast<std::size_t>(end - at) < payload) [[unlikely]]
      bad_batch(bytes);
    if (header == me) [[likely]] {
      ++counters_.messages_delivered;
      deliver_(owner_, at, payload);
    } else if (header & bcast_bit) {
      handle_bcast(static_cast<rank_t>(header & ~bcast_bit), at, payload);
    } else {
      // An intermediary: on towards the destination's next hop.
      ++counters_.messages_forwarded;
      std::memcpy(append(next_hop_[header], header, payload), at, payload);
    }
    at += payload;
    relieve_if_full();
  }
}

std::size_t Untyped::deliver_run(const std::byte* data, std::size_t bytes) {
  // Slices of whole records: between them, what the callbacks sent may go out (relieve).
  // Sized records cannot be cut without decoding them: their runs go whole.
  if (fixed_payload_ == 0) {
    const std::size_t delivered = deliver_run_(owner_, data, bytes);
    relieve_if_full();
    return delivered;
  }
  const std::size_t slice = std::max<std::size_t>(relief_slice_bytes / fixed_payload_, 1) * fixed_payload_;
  std::size_t delivered = 0;
  for (std::size_t offset = 0; offset < bytes; offset += slice) {
    delivered += deliver_run_(owner_, data + offset, std::min(slice, bytes - offset));
    relieve_if_full();
  }
  return delivered;
}

// Callbacks and forwarding only append while a batch is handled, and a batch whose messages fan
// out (a label that reaches every neighbour, a broadcast) could pile up many capacities. So once
// the buffers are full, the remote batches go to the transport before handling goes on: sends
// and progress only, nothing handled and no callback run in here, so nothing recurses. This
// rank's own batches wait for the next flush. Finished rendezvous sends are collected first, so
// the bound on batches in flight leaves room; arrivals join the backlog. A batch the transport
// refuses stays, and the next try waits for another capacity's worth of sends.
void Untyped::relieve() {
  if (buffered_ > counters_.peak_buffered_bytes) counters_.peak_buffered_bytes = buffered_;
  progress_if_needed();
  comm::Completion c;
  while (endpoint_.poll(c)) take(c);
  for (rank_t hop : pending_) {
    if (hop != rank()) send_hop(hop);  // a hop sent empty stays listed: the next flush skips it
  }
  progress_if_needed();
  const std::size_t capacity = config_.capacity_bytes;
  relieve_at_ = buffered_ < capacity ? capacity : buffered_ + capacity;
}

void Untyped::handle_bcast(rank_t origin, const std::byte* payload, std::size_t bytes) {
  if (origin != rank()) {
    const std::uint32_t header = bcast_bit | static_cast<std::uint32_t>(origin);
    for (rank_t child : bcast_children_[static_cast<std::size_t>(origin)]) {
      ++counters_.messages_forwarded;
      std::memcpy(append(child, header, bytes), payload, bytes);
    }
  }
  ++counters_.messages_delivered;
  deliver_(owner_, payload, bytes);
}

bool Untyped::test_empty() {
  bool progressed = false;
  return step(progressed);
}

bool Untyped::shared_step(bool may_idle, bool& ran_callbacks) {
  const std::uint64_t delivered = counters_.messages_delivered;
  bool progressed = false;
  const bool done = step(progressed, may_idle);
  ran_callbacks = counters_.messages_delivered != delivered;
  return done;
}

bool Untyped::step(bool& progressed, bool may_idle) {
  if (busy_) {
    throw Error(
        "mailbox: test_empty or wait_empty called from a receive callback; call them from the "
        "thread's own code, after its sends");
  }
  stopping();  // a request made on this rank joins the next report
  close_windows();
  BusyScope busy(busy_);
  const bool had_batches = buffered_ > 0;
  const std::uint64_t delivered = counters_.messages_delivered;
  progressed = drain(drain_batch) > 0;
  if (flush() && had_batches) progressed = true;
  termination_->flush_outbox();
  const bool flow_sent = flow_->flush();  // a resume goes out before the epoch ends
  // A step that ran callbacks is not idle: they may have given the program work of its own
  // (test_empty's callers keep work queues), which it does before it calls again.
  if (counters_.messages_delivered != delivered) {
    progressed = true;
  } else if (may_idle && buffered_ == 0 && backlog_.empty() && termination_->on_idle()) {
    progressed = true;
  }
  progress_if_needed();
  if (!flow_sent || !termination_->finished()) return false;
  if (termination_->cancelled()) throw Cancelled();  // on every rank, at the end of this epoch
  return true;
}

bool Untyped::stopping() {
  if (!termination_->cancelling() && cancellation_requested()) termination_->request_cancel();
  return termination_->cancelling();
}

void Untyped::wait_empty() {
  Backoff backoff;
  for (;;) {
    bool progressed = false;
    if (step(progressed)) return;
    if (progressed) {
      backoff.reset();
    } else {
      backoff.pause();
    }
  }
}

Stats Untyped::stats() const {
  Stats s = counters_;
  std::size_t buffered = buffered_;
  for (rank_t hop : pending_) {
    const Window& window = windows_[static_cast<std::size_t>(hop)];
    const BatchBuffer& batch = direct_[static_cast<std::size_t>(hop)];
    if (window.end != nullptr) buffered += static_cast<std::size_t>(window.cursor - (batch.data() + batch.size()));
  }
  if (buffered > s.peak_buffered_bytes) s.peak_buffered_bytes = buffered;
  s.termination_waves = termination_->waves();
  s.pauses = flow_->pauses();
  return s;
}

}  // namespace courier::mailbox::detail
