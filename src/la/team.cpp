#include "courier/la/team.hpp"

#include <algorithm>
#include <cstring>
#include <utility>

#include "courier/core/cancel.hpp"
#include "courier/core/error.hpp"
#include "courier/sync/wait.hpp"
#ifdef COURIER_HAVE_MPI
#include "mpi/mpi_messages.hpp"
#endif

namespace courier::la {

Team::Team(comm::Runtime& runtime, sync::Channel& channel, unsigned threads, std::vector<unsigned> pus,
           OnMessage on_message, Messages messages)
    : runtime_(runtime),
      threads_(std::max(threads, 1u)),
      limits_(channel.wait_limits()),
      on_message_(std::move(on_message)),
      pool_(4 * static_cast<std::size_t>(threads_) * static_cast<std::size_t>(runtime.ranks()) + 8),
      allocator_(pool_),
      team_(threads_, std::move(pus)),
      values_(threads_) {
  for (Gathered& g : gathered_) g.by_rank.resize(static_cast<std::size_t>(runtime.ranks()));
  if (messages == Messages::mpi) {
#ifdef COURIER_HAVE_MPI
    mpi_ = std::make_unique<MpiMessages>(sizeof(std::uint64_t) + sizeof(Contribution), pool_,
                                         [this](unsigned m, Arrival&& a) { deliver(m, std::move(a)); });
    return;
#else
    throw InputError("la --endpoints mpi: this courier was built without MPI");
#endif
  }
  endpoints_.reserve(threads_);
  for (unsigned m = 0; m < threads_; ++m) {
    comm::EndpointOptions options;
    options.completion = comm::CompletionKind::handler;
    options.allocator = &allocator_;
    options.handler = [this, m](const comm::Completion& c) { handle(m, c); };
    endpoints_.push_back(&runtime_.create_endpoint(std::move(options)));
  }
}

// The endpoints stay with the runtime (it has no way to remove one) and their handler points here,
// so a team's user ends with its sends completed and a barrier (Model::member_loop does): every
// message for the team has then been handled, and none can arrive for a team that is gone.
Team::~Team() = default;

void Team::run(const std::function<void(unsigned member)>& body) { team_.run(body); }

#ifdef COURIER_HAVE_MPI
void Team::add_group(unsigned k, bool member, rank_t root) { mpi_->add_group(k, member, root); }
void Team::broadcast(unsigned k, std::span<const std::byte> data, Pending& pending) {
  mpi_->broadcast(k, data, pending);
}
void Team::expect(unsigned k, unsigned member, comm::tag_t tag) { mpi_->expect(k, member, tag); }
void Team::add_row_group(unsigned k, bool member, rank_t root, unsigned leader, unsigned receives,
                         std::size_t max_bytes) {
  mpi_->add_row_group(k, member, root, leader, receives, max_bytes);
}
#else
void Team::add_group(unsigned, bool, rank_t) { throw Error("la team: no group broadcasts without MPI"); }
void Team::broadcast(unsigned, std::span<const std::byte>, Pending&) { throw Error("la team: no MPI"); }
void Team::expect(unsigned, unsigned, comm::tag_t) { throw Error("la team: no MPI"); }
void Team::add_row_group(unsigned, bool, rank_t, unsigned, unsigned, std::size_t) { throw Error("la team: no MPI"); }
#endif

bool Team::poll() {
#ifdef COURIER_HAVE_MPI
  if (mpi_) return mpi_->poll();
#endif
  return runtime_.progress();
}

void Team::handle(unsigned member, const comm::Completion& c) {
  if (c.op == comm::Op::send) {
    static_cast<Pending*>(c.context)->done();
    return;
  }
  if (c.op != comm::Op::recv) throw Error("la team: a completion that is neither a send nor a receive");
  deliver(member, Arrival{c.rank, c.tag, allocator_.take(c.data)});
}

void Team::deliver(unsigned member, Arrival&& a) {
  if ((a.tag >> 32) != kTeamKind) return on_message_(member, std::move(a));
  std::uint64_t generation = 0;
  Contribution values{};
  if (a.bytes.size() != sizeof generation + sizeof values || a.source < 0 || a.source >= ranks())
    throw Error("la team: a collective's message of the wrong size or from no rank");
  std::memcpy(&generation, a.bytes.data(), sizeof generation);
  std::memcpy(values.data(), a.bytes.data() + sizeof generation, sizeof values);
  recycle(std::move(a.bytes));
  Gathered& slot = gathered_[generation & 1];
  slot.by_rank[static_cast<std::size_t>(a.source)] = values;
  slot.arrived.fetch_add(1, std::memory_order_release);
}

// Every member may post on every endpoint: the endpoint names the receiver.
void Team::send(rank_t rank, unsigned to, comm::tag_t tag, std::span<const std::byte> data, Pending& pending) {
#ifdef COURIER_HAVE_MPI
  if (mpi_) return mpi_->send(rank, to, tag, data, pending);
#endif
  comm::Endpoint& endpoint = *endpoints_[to];
  pending.add();
  Backoff backoff(limits_);
  for (;;) {
    const comm::Post post = endpoint.send(rank, tag, data, &pending);
    if (post == comm::Post::posted) return;
    if (post == comm::Post::done) {
      pending.done();
      return;
    }
    runtime_.progress();  // full: let what is queued leave
    backoff.pause();
  }
}

Team::Totals Team::combine(unsigned member, const Totals& values, bool maximum) {
  values_[member] = values;
  const std::uint64_t generation = meeting_.generation.load(std::memory_order_acquire);
  if (meeting_.arrived.fetch_add(1, std::memory_order_acq_rel) + 1 == threads_) {
    // The last of this rank: combine the members, then the ranks.
    Totals all = values_[0];
    for (unsigned m = 1; m < threads_; ++m)
      for (std::size_t k = 0; k < all.size(); ++k)
        all[k] = maximum ? std::max(all[k], values_[m][k]) : all[k] + values_[m][k];
    // A sum also carries whether this rank was asked to stop: one more value, summed alike.
    Contribution mine{};
    std::copy(all.begin(), all.end(), mine.begin());
    mine.back() = !maximum && cancellation_requested() ? 1.0 : 0.0;
    if (ranks() > 1) mine = across_ranks(generation, mine, maximum);
    std::copy(mine.begin(), mine.end() - 1, all.begin());
    meeting_.result = all;
    if (!maximum) meeting_.cancelled = mine.back() > 0;
    meeting_.arrived.store(0, std::memory_order_relaxed);
    meeting_.generation.store(generation + 1, std::memory_order_release);
    return all;
  }
  wait_until([&] { return meeting_.generation.load(std::memory_order_acquire) != generation; });
  return meeting_.result;
}

// This rank's contribution to every other rank, then theirs combined with it in rank order.
Team::Contribution Team::across_ranks(std::uint64_t generation, const Contribution& mine, bool maximum) {
  std::array<std::byte, sizeof generation + sizeof mine> message;
  std::memcpy(message.data(), &generation, sizeof generation);
  std::memcpy(message.data() + sizeof generation, mine.data(), sizeof mine);
  Gathered& slot = gathered_[generation & 1];
  const auto here = static_cast<std::size_t>(rank());
  slot.by_rank[here] = mine;
  for (rank_t r = 0; r < ranks(); ++r)
    if (r != rank()) send(r, 0, kTeamKind << 32, message, collective_sends_);
  const auto others = static_cast<unsigned>(ranks() - 1);
  wait_until([&] { return slot.arrived.load(std::memory_order_acquire) == others && collective_sends_.idle(); });
  slot.arrived.store(0, std::memory_order_relaxed);  // its next use is two collectives on
  Contribution all = slot.by_rank[0];
  for (std::size_t r = 1; r < slot.by_rank.size(); ++r)
    for (std::size_t k = 0; k < all.size(); ++k)
      all[k] = maximum ? std::max(all[k], slot.by_rank[r][k]) : all[k] + slot.by_rank[r][k];
  return all;
}

void Team::barrier(unsigned member) { combine(member, Totals{}, false); }
Team::Totals Team::sum(unsigned member, const Totals& values) { return combine(member, values, false); }
double Team::max(unsigned member, double value) { return combine(member, Totals{value}, true)[0]; }

}  // namespace courier::la
