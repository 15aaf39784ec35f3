#include "courier/algo/mailbox_cc.hpp"

#include <algorithm>
#include <atomic>

#include "courier/algo/mailbox_shuffle.hpp"
#include "courier/core/backoff.hpp"
#include "courier/core/error.hpp"
#include "courier/core/timer.hpp"
#include "courier/mailbox/mailbox.hpp"
#include "courier/mailbox/round_robin.hpp"
#include "mailbox_slots.hpp"
#include "mailbox_threads.hpp"

namespace courier::algo {

namespace {

using graph::vertex_t;

// One direction of an edge, stored on the rank that keeps `from`'s value: `from` is a vertex it
// owns or a delegate.
struct Arc {
  vertex_t from;
  vertex_t to;
};

// Where the two directions of an edge live. Ordinary ends stay with their owners; a delegate's
// edges go to the owner of the other end (colocated, paper 001 V-B), and an edge between two
// delegates to a rank chosen by its ends, since every rank has both labels.
template <class Send>
void place_edge(const graph::Edge& e, const Delegates& delegates, const mailbox::RoundRobin& own, int ranks, Send&& send) {
  if (e.src == e.dst) return;  // a self loop joins nothing
  const bool src_delegate = delegates.contains(e.src), dst_delegate = delegates.contains(e.dst);
  if (!src_delegate && !dst_delegate) {
    send(own.owner(e.src), Arc{e.src, e.dst});
    send(own.owner(e.dst), Arc{e.dst, e.src});
    return;
  }
  const int rank = !src_delegate   ? own.owner(e.src)
                   : !dst_delegate ? own.owner(e.dst)
                                   : static_cast<int>((e.src + e.dst) % static_cast<vertex_t>(ranks));
  send(rank, Arc{e.src, e.dst});
  send(rank, Arc{e.dst, e.src});
}

// A label offered to a vertex: `target` is the vertex's id, or for a delegate's new label (sent to
// every rank) delegate_bit | the delegate's index.
struct Offer {
  std::uint64_t target;
  vertex_t label;
};
constexpr std::uint64_t delegate_bit = std::uint64_t{1} << 63;

// One rank's part of the propagation: the labels of its slots, the arcs leaving them, and per
// compute thread a work list of slots whose label dropped and has not been offered to their
// neighbours yet. With several threads (Config::threads) labels and queued flags are shared by
// the threads' own loops and the callbacks, so they are read and lowered atomically; a callback
// queues its slot on the thread that runs it (Mailbox::callback_thread), which does that work.
class LabelPropagation {
 public:
  // Creates the mailbox; no callback runs before run().
  LabelPropagation(comm::Runtime& runtime, const mailbox::Config& config)
      : shared_(config.threads > 1),
        work_(std::max(config.threads, 1u)),
        changes_(work_.size(), 0),
        box_(runtime, OnOffer{this}, config) {}

  void load(const detail::Slots& slots, const Delegates& delegates, const std::vector<Arc>& arcs) {
    slots_ = &slots;
    // Arcs grouped by the slot of their source; targets encoded as a local slot or remote_bit | id.
    auto grouped = detail::group_by(arcs, slots.count(), [&](const Arc& a) { return slots.here(a.from); });
    offsets_ = std::move(grouped.offsets);
    targets_.reserve(grouped.sorted.size());
    for (const Arc& a : grouped.sorted) {
      const std::size_t slot = slots.here(a.to);
      targets_.push_back(slot == detail::Slots::npos ? remote_bit | a.to : slot);
    }
    labels_.resize(slots.count());
    const auto& own = slots.round_robin();
    for (std::size_t s = 0; s < slots.owned(); ++s) labels_[s] = own.global(s);
    for (std::uint32_t i = 0; i < delegates.size(); ++i) labels_[slots.of_delegate(i)] = delegates.id(i);
    queued_.assign(slots.count(), 0);
  }

  // The rank's own loop, on each of its threads: offers what is queued, then lets the mailbox
  // deliver and detect the end. Callbacks only lower labels and queue slots, so every send comes
  // from this loop, outside the mailbox's handling, where a full buffer starts an ordinary
  // exchange: memory stays bounded by the capacity. (A cascade run inside the callback sent this
  // rank's whole share of the edges while a slow peer held back its batches.)
  void run() {
    const auto threads = static_cast<unsigned>(work_.size());
    detail::on_threads(box_, [&](unsigned t) {
      // Every slot with edges offers its own id once, thread t those of its stripe; popped
      // smallest slot first.
      for (std::size_t s = slots_->count(); s-- > 0;)
        if (s % threads == t && offsets_[s + 1] > offsets_[s]) enqueue(s, t);
      auto& mine = box_.thread(t);
      Backoff backoff;
      for (;;) {
        drain(t);
        if (mine.test_empty()) break;
        if (work_[t].empty()) {
          backoff.pause();
        } else {
          backoff.reset();
        }
      }
      if (!work_[t].empty())
        throw Error("mailbox cc: the mailbox reported empty while labels were still queued; this is a bug");
    });
  }

  const std::vector<vertex_t>& labels() const { return labels_; }
  std::uint64_t changes() const {
    std::uint64_t sum = 0;
    for (const std::uint64_t c : changes_) sum += c;
    return sum;
  }
  mailbox::Stats stats() const { return box_.local_stats(); }

 private:
  static constexpr std::uint64_t remote_bit = std::uint64_t{1} << 63;

  // The callback as a type of its own, so the mailbox inlines it into its receive loop.
  struct OnOffer {
    LabelPropagation* self;
    template <class Box>
    void operator()(Box& box, const Offer& offer) const {
      self->receive(offer, box.callback_thread());
    }
  };

  void receive(const Offer& offer, unsigned t) {
    const std::size_t slot = (offer.target & delegate_bit) != 0
                                 ? slots_->of_delegate(static_cast<std::uint32_t>(offer.target & ~delegate_bit))
                                 : slots_->round_robin().local(offer.target);
    lower(slot, offer.label, false, t);  // a delegate's broadcast already reached every rank
  }

  vertex_t label_of(std::size_t slot) {
    return shared_ ? std::atomic_ref<vertex_t>(labels_[slot]).load() : labels_[slot];
  }

  // True if `label` is below the slot's label, which it then becomes.
  bool lowered(std::size_t slot, vertex_t label) {
    if (!shared_) {
      if (label >= labels_[slot]) return false;
      labels_[slot] = label;
      return true;
    }
    std::atomic_ref<vertex_t> current(labels_[slot]);
    vertex_t seen = current.load();
    while (label < seen)
      if (current.compare_exchange_weak(seen, label)) return true;
    return false;
  }

  // t: the thread doing it (its own loop, or the callback it runs).
  void lower(std::size_t slot, vertex_t label, bool announce, unsigned t) {
    if (!lowered(slot, label)) return;
    ++changes_[t];
    enqueue(slot, t);
    if (announce && slots_->is_delegate(slot))
      box_.thread(t).async_bcast({delegate_bit | slots_->delegate_index(slot), label});
  }

  void enqueue(std::size_t slot, unsigned t) {
    if (shared_) {
      if (std::atomic_ref<std::uint8_t>(queued_[slot]).exchange(1) != 0) return;
    } else {
      if (queued_[slot] != 0) return;
      queued_[slot] = 1;
    }
    work_[t].push_back(slot);
  }

  void unqueue(std::size_t slot) {
    if (shared_) {
      std::atomic_ref<std::uint8_t>(queued_[slot]).store(0);
    } else {
      queued_[slot] = 0;
    }
  }

  // Offers the labels of thread t's queued slots to their neighbours. A send may run callbacks
  // (when the mailbox exchanges), which lower more labels and queue their slots: this loop takes
  // them too.
  void drain(unsigned t) {
    std::vector<std::size_t>& work = work_[t];
    auto& mine = box_.thread(t);
    while (!work.empty()) {
      if (mine.stopping()) {  // cancelled: the labels are dropped with the run
        for (const std::size_t s : work) unqueue(s);
        work.clear();
        return;
      }
      const std::size_t s = work.back();
      work.pop_back();
      unqueue(s);  // before the label is read: a lower label from now on queues the slot again
      const vertex_t label = label_of(s);
      for (std::size_t k = offsets_[s]; k < offsets_[s + 1]; ++k) {
        const std::uint64_t target = targets_[k];
        if ((target & remote_bit) != 0) {
          const vertex_t v = target & ~remote_bit;
          mine.async_send(slots_->round_robin().owner(v), Offer{v, label});
        } else {
          lower(static_cast<std::size_t>(target), label, true, t);
        }
      }
    }
  }

  bool shared_;  // several threads: labels and queued flags are atomic
  const detail::Slots* slots_ = nullptr;
  std::vector<std::size_t> offsets_;
  std::vector<std::uint64_t> targets_;
  std::vector<vertex_t> labels_;
  std::vector<std::uint8_t> queued_;
  std::vector<std::vector<std::size_t>> work_;  // [thread]
  std::vector<std::uint64_t> changes_;          // [thread]
  mailbox::Mailbox<Offer, OnOffer> box_;  // last: its callback uses the members above
};

}  // namespace

MailboxComponents mailbox_cc(comm::Runtime& runtime, std::span<const graph::Edge> my_edges,
                             graph::vertex_t num_vertices, const MailboxCcOptions& options) {
  Timer timer;
  MailboxComponents out;
  mailbox::Config setup = options.mailbox;
  setup.echo_config = false;
  setup.threads = 1;  // the set-up runs on the rank's own thread
  // Every mailbox of the run exists before the first collective step (see mailbox_shuffle.hpp).
  MailboxShuffle<Arc> shuffle(runtime, setup);
  LabelPropagation propagation(runtime, options.mailbox);
  const Delegates delegates =
      find_delegates(runtime, my_edges, num_vertices, options.delegates, setup, &out.setup_stats);
  const mailbox::RoundRobin own(runtime.ranks(), runtime.rank(), num_vertices);
  std::vector<Arc> arcs = shuffle.run(
      [&](auto&& send) {
        for (const graph::Edge& e : my_edges) place_edge(e, delegates, own, runtime.ranks(), send);
      },
      &out.setup_stats);
  const detail::Slots slots(own, delegates);
  propagation.load(slots, delegates, arcs);
  std::vector<Arc>().swap(arcs);  // the propagation keeps its own copy
  out.setup_seconds = timer.lap();

  propagation.run();
  out.seconds = timer.lap();
  out.labels = slots.owned_values(propagation.labels());
  out.delegates = delegates.size();
  out.delegate_threshold = delegates.threshold();
  out.label_changes = propagation.changes();
  out.stats = propagation.stats();
  return out;
}

}  // namespace courier::algo
