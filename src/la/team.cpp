#include "courier/la/team.hpp"

#include <algorithm>
#include <utility>

#include "courier/core/cancel.hpp"
#include "courier/core/error.hpp"
#include "courier/sync/wait.hpp"
#ifdef COURIER_HAVE_MPI
#include "mpi/mpi_messages.hpp"
#endif

namespace courier::la {

Team::Team(comm::Runtime& runtime, sync::Channel& channel, unsigned threads, std::vector<unsigned> pus,
           OnMessage on_message, Messages messages, unsigned segments)
    : runtime_(runtime),
      channel_(channel),
      threads_(std::max(threads, 1u)),
      limits_(channel.wait_limits()),
      on_message_(std::move(on_message)),
      pool_(4 * static_cast<std::size_t>(threads_) * static_cast<std::size_t>(runtime.ranks()) + 8),
      allocator_(pool_),
      team_(threads_, std::move(pus)),
      values_(threads_) {
  if (messages == Messages::mpi) {
#ifdef COURIER_HAVE_MPI
    mpi_ = std::make_unique<MpiMessages>(threads_, segments, pool_,
                                         [this](unsigned m, Arrival&& a) { on_message_(m, std::move(a)); });
    return;
#else
    (void)segments;
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
#else
void Team::add_group(unsigned, bool, rank_t) { throw Error("la team: no group broadcasts without MPI"); }
void Team::broadcast(unsigned, std::span<const std::byte>, Pending&) { throw Error("la team: no MPI"); }
void Team::expect(unsigned, unsigned, comm::tag_t) { throw Error("la team: no MPI"); }
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
  on_message_(member, Arrival{c.rank, c.tag, allocator_.take(c.data)});
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
    // A sum also carries whether this rank was asked to stop: one more count, summed alike.
    double cancel = !maximum && cancellation_requested() ? 1.0 : 0.0;
    if (ranks() > 1) {
      for (double& value : all) value = maximum ? channel_.max_all(value) : channel_.sum_all(value);
      if (!maximum) cancel = channel_.sum_all(cancel);
    }
    meeting_.result = all;
    meeting_.cancelled = cancel > 0;
    meeting_.arrived.store(0, std::memory_order_relaxed);
    meeting_.generation.store(generation + 1, std::memory_order_release);
    return all;
  }
  wait_until([&] { return meeting_.generation.load(std::memory_order_acquire) != generation; });
  return meeting_.result;
}

void Team::barrier(unsigned member) { combine(member, Totals{}, false); }
Team::Totals Team::sum(unsigned member, const Totals& values) { return combine(member, values, false); }
double Team::max(unsigned member, double value) { return combine(member, Totals{value}, true)[0]; }

}  // namespace courier::la
