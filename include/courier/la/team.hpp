#pragma once
// Team: the threads of one rank in Graphite's MPI*X model (paper 003, section 5), where every
// thread, not every process, is a unit of partitioning and of communication. A team is persistent
// (one fork and join per run: run() calls the body once on every member) and every member owns a
// comm endpoint: a message for member m of a rank is sent on endpoint m and handled there on m's
// behalf by whoever progresses the runtime, so a member busy with its tiles never holds up a
// message meant for it, and one implementation serves every transport (local, mpi, ofi).
//
// Messages land in pooled buffers that the receiver takes over (no copy); what a member does with
// a message is the team's `on_message` handler, which must be quick and must not wait (it runs
// inside progress). Members wait for their inputs with wait_until(), which drives progress and
// backs off, so a rank whose runtime has no progress thread still moves its messages.
//
// Collectives (barrier, sums, maxima) run over every member of every rank: the members of a rank
// meet, the last to arrive sends the rank's values -- all of them and the cancellation request, one
// message -- to member 0 of every other rank and combines what the others sent, in rank order, so
// that every rank gets the same bits; then all leave together. One message latency per collective,
// not one channel reduction per value. Messages keep being handled meanwhile. Tags of kind
// kTeamKind are the team's own; a user's tags are (kind << 32) | ... with kind below it.
//
// Messages::mpi is the baseline the endpoints are measured against: the same messages over raw
// MPI under MPI_THREAD_MULTIPLE, posted by the members themselves (src/la/mpi/mpi_messages.hpp).
#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <tuple>
#include <vector>

#include "courier/comm/buffer_pool.hpp"
#include "courier/comm/runtime.hpp"
#include "courier/core/backoff.hpp"
#include "courier/core/thread_team.hpp"
#include "courier/sync/channel.hpp"

namespace courier::la {

// A message as its receiver gets it: the buffer is the receiver's to keep or give back.
struct Arrival {
  rank_t source = 0;
  comm::tag_t tag = 0;
  comm::Buffer bytes;
};

// Counts a member's sends still in flight: rendezvous-sized data must stay unchanged until then.
class Pending {
 public:
  void add() { count_.fetch_add(1, std::memory_order_relaxed); }
  void done() { count_.fetch_sub(1, std::memory_order_release); }
  bool idle() const { return count_.load(std::memory_order_acquire) == 0; }

 private:
  std::atomic<std::int64_t> count_{0};
};

// What carries the members' messages between ranks.
enum class Messages { endpoints, mpi };

class MpiMessages;

class Team {
 public:
  static constexpr comm::tag_t kTeamKind = 3;  // tags (kTeamKind << 32) carry the collectives

  using OnMessage = std::function<void(unsigned member, Arrival&& arrival)>;

  // `threads` members on this rank, pinned to `pus` when it has one PU per member. Creates one
  // endpoint per member on `runtime`: every rank makes its team at the same point. `channel`
  // gives the wait limits; `on_message` is told of every message for a member.
  // Messages::mpi needs an MPI launcher under MPI_THREAD_MULTIPLE.
  Team(comm::Runtime& runtime, sync::Channel& channel, unsigned threads, std::vector<unsigned> pus,
       OnMessage on_message, Messages messages = Messages::endpoints);
  ~Team();
  Team(const Team&) = delete;
  Team& operator=(const Team&) = delete;

  unsigned threads() const { return threads_; }
  rank_t rank() const { return runtime_.rank(); }
  rank_t ranks() const { return runtime_.ranks(); }

  // body(member) on every member; returns when all are done (rethrows the first exception).
  void run(const std::function<void(unsigned member)>& body);

  // To member `to` of rank `rank`, tagged `tag`; any member may call it. Eager-sized data is
  // copied; larger data must stay unchanged until `pending` is idle. Retries while the runtime is full.
  void send(rank_t rank, unsigned to, comm::tag_t tag, std::span<const std::byte> data, Pending& pending);

  // Groups of tiles as communicators, with Messages::mpi only (as Graphite sends x and y):
  // broadcasts() says whether the team has them. add_group and add_row_group are collective over
  // every rank, in the same order of k. Column group k: MPI_Ibcast of x_k; broadcast() is the
  // root's (data unchanged until `pending` is idle); expect() posts the next x_k for `member`,
  // delivered to on_message tagged `tag`. Row group k: partials y_k, sent with send() tagged
  // (kind << 32) | k, into `receives` pre-posted receives of `max_bytes` at the leader's rank
  // `root` for its member `leader`. A team on MPI sends nothing else.
  bool broadcasts() const { return mpi_ != nullptr; }
  void add_group(unsigned k, bool member, rank_t root);
  void broadcast(unsigned k, std::span<const std::byte> data, Pending& pending);
  void expect(unsigned k, unsigned member, comm::tag_t tag);
  void add_row_group(unsigned k, bool member, rank_t root, unsigned leader, unsigned receives, std::size_t max_bytes);

  // Waits, driving progress, until ready() holds.
  template <class Ready>
  void wait_until(Ready&& ready) {
    Backoff backoff(limits_);
    while (!ready()) {
      if (poll())
        backoff.reset();
      else
        backoff.pause();
    }
  }

  // One round of progress if nobody else is progressing: a member in the middle of long work calls
  // it now and then, so that what it sent (a rendezvous waits for the sender's progress) moves on.
  void progress() {
    if (runtime_.ranks() > 1) poll();
  }

  // Collectives over every member of every rank; every member calls them in the same order.
  // Sums are of doubles, exact for counts below 2^53.
  using Totals = std::array<double, 5>;
  void barrier(unsigned member);
  Totals sum(unsigned member, const Totals& values);
  double max(unsigned member, double value);
  // After a sum (or barrier): whether any rank had been asked to stop the run (core/cancel.hpp).
  // Every member of every rank sees the same answer, so all can leave the run at the same point.
  bool cancelled() const { return meeting_.cancelled; }

  // Gives a buffer of a handled message back for reuse.
  void recycle(comm::Buffer buffer) { pool_.recycle(std::move(buffer)); }

 private:
  // The values of a collective and the cancellation request, as they travel between ranks.
  using Contribution = std::array<double, std::tuple_size_v<Totals> + 1>;
  Totals combine(unsigned member, const Totals& values, bool maximum);
  Contribution across_ranks(std::uint64_t generation, const Contribution& mine, bool maximum);
  void deliver(unsigned member, Arrival&& arrival);  // a collective's contribution, or on_message's
  bool poll();  // one round of progress of what carries the messages
  void handle(unsigned member, const comm::Completion& completion);

  comm::Runtime& runtime_;
  const unsigned threads_;
  const Backoff::Limits limits_;
  OnMessage on_message_;
  comm::BufferPool pool_;
  comm::PooledAllocator allocator_;
  std::vector<comm::Endpoint*> endpoints_;  // member m's is endpoints_[m]
  std::unique_ptr<MpiMessages> mpi_;        // instead, with Messages::mpi
  ThreadTeam team_;

  // The members' meeting point: each adds its value, the last one combines across ranks.
  struct alignas(64) Meeting {
    std::atomic<unsigned> arrived{0};
    std::atomic<std::uint64_t> generation{0};
    Totals result{};         // written by the last member before it moves the generation on
    bool cancelled = false;  // likewise, by sums
  };
  std::vector<Totals> values_;  // one per member, for the current collective
  Meeting meeting_;
  // The other ranks' contributions, by the parity of the collective's generation: a rank can be one
  // collective ahead of another, never two (it needs everybody's part of the last one first).
  struct Gathered {
    std::vector<Contribution> by_rank;
    std::atomic<unsigned> arrived{0};
  };
  std::array<Gathered, 2> gathered_;
  Pending collective_sends_;
};

}  // namespace courier::la
