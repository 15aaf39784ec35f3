#include "courier/algo/mailbox_spmv.hpp"

#include <optional>
#include <string>

#include "courier/algo/mailbox_shuffle.hpp"
#include "courier/core/error.hpp"
#include "courier/core/timer.hpp"
#include "courier/mailbox/mailbox.hpp"
#include "courier/mailbox/round_robin.hpp"
#include "mailbox_slots.hpp"
#include "mailbox_threads.hpp"

namespace courier::algo {

namespace {

using graph::vertex_t;

// A nonzero on its way to the rank that keeps it: A[row][col] = weight.
struct Nonzero {
  vertex_t row;
  vertex_t col;
  double weight;
};

// Who keeps a_uv (paper 001 V-C): the column's owner, unless the column is a delegate (then the
// row's owner, which has a copy of x) or both are (then any rank: every rank has both copies).
int keeper(const Nonzero& a, const Delegates& delegates, const mailbox::RoundRobin& own, int ranks) {
  const bool row_delegate = delegates.contains(a.row), col_delegate = delegates.contains(a.col);
  if (!col_delegate) return own.owner(a.col);
  if (!row_delegate) return own.owner(a.row);
  return static_cast<int>((a.row + a.col) % static_cast<vertex_t>(ranks));
}

// A nonzero as its keeper stores it: the slot of x to read, and where the product goes -- a slot
// of y here, or remote_bit | the row's id when another rank owns the row.
struct Stored {
  std::uint64_t col_slot;
  std::uint64_t row_target;
  double weight;
};
constexpr std::uint64_t remote_bit = std::uint64_t{1} << 63;

// What the multiplication's mailbox carries: a kind in the top two bits of `key`, then a row id or
// a delegate index. The kind travels with the message because a rank that leaves one phase's
// wait_empty first may send the next phase's messages to a rank still finishing the previous one.
struct Entry {
  enum Kind : std::uint64_t { product = 0, delegate_x = 1, delegate_partial = 2, delegate_total = 3 };
  static constexpr int kind_shift = 62;
  static constexpr std::uint64_t index_mask = (std::uint64_t{1} << kind_shift) - 1;
  static Entry make(Kind kind, std::uint64_t index, double value) {
    return {(static_cast<std::uint64_t>(kind) << kind_shift) | index, value};
  }
  Kind kind() const { return static_cast<Kind>(key >> kind_shift); }
  std::uint64_t index() const { return key & index_mask; }

  std::uint64_t key;
  double value;
};

}  // namespace

struct MailboxMatrix::State {
  // Creates the mailbox; no callback runs before the first multiply.
  State(comm::Runtime& runtime, const mailbox::Config& config)
      : box(runtime, OnEntry{this}, config) {}

  // The callback as a type of its own, so the mailbox inlines it into its receive loop.
  struct OnEntry {
    State* self;
    template <class Box>
    void operator()(Box&, const Entry& e) const { self->receive(e); }
  };

  void receive(const Entry& e) {
    switch (e.kind()) {
      case Entry::product:
        y[slots->round_robin().local(e.index())] += e.value;
        break;
      case Entry::delegate_x:
        x[slots->of_delegate(static_cast<std::uint32_t>(e.index()))] = e.value;
        break;
      case Entry::delegate_partial:
        owner_sum[e.index()] += e.value;
        break;
      case Entry::delegate_total:
        y[slots->of_delegate(static_cast<std::uint32_t>(e.index()))] = e.value;
        break;
    }
  }

  vertex_t num_vertices = 0;
  Delegates delegates;
  std::optional<detail::Slots> slots;  // once the delegates are known
  std::vector<Stored> stored;   // grouped by column slot
  std::vector<double> x, y;     // by slot
  std::vector<double> owner_sum;  // [delegate]: the total being summed, on the delegate's owner
  mailbox::Stats setup_stats;
  double setup_seconds = 0;
  mailbox::Mailbox<Entry, OnEntry> box;  // last: its callback uses the members above
};

MailboxMatrix::MailboxMatrix(comm::Runtime& runtime, std::span<const graph::Edge> my_edges,
                             std::span<const double> my_weights, graph::vertex_t num_vertices,
                             const MailboxSpmvOptions& options) {
  if (!my_weights.empty() && my_weights.size() != my_edges.size())
    throw Error("MailboxMatrix: " + std::to_string(my_weights.size()) + " weights for " +
                std::to_string(my_edges.size()) + " edges; pass one weight per edge, or none for all 1");
  if (num_vertices > Entry::index_mask)
    throw Error("MailboxMatrix: " + std::to_string(num_vertices) + " vertices is more than the 2^62 it can address");
  Timer timer;
  mailbox::Config setup = options.mailbox;
  setup.echo_config = false;
  setup.threads = 1;  // the set-up runs on the rank's own thread
  // Every mailbox of the run exists before the first collective step (see mailbox_shuffle.hpp).
  MailboxShuffle<Nonzero> shuffle(runtime, setup);
  state_ = std::make_unique<State>(runtime, options.mailbox);
  State& s = *state_;
  s.num_vertices = num_vertices;
  s.delegates = find_delegates(runtime, my_edges, num_vertices, options.delegates, setup, &s.setup_stats);
  const Delegates& delegates = s.delegates;
  const mailbox::RoundRobin own(runtime.ranks(), runtime.rank(), num_vertices);
  std::vector<Nonzero> mine = shuffle.run(
      [&](auto&& send) {
        for (std::size_t i = 0; i < my_edges.size(); ++i) {
          const Nonzero a{my_edges[i].src, my_edges[i].dst, my_weights.empty() ? 1.0 : my_weights[i]};
          send(keeper(a, delegates, own, runtime.ranks()), a);
        }
      },
      &s.setup_stats);

  const detail::Slots& slots = s.slots.emplace(own, delegates);
  auto grouped = detail::group_by(mine, slots.count(), [&](const Nonzero& a) { return slots.here(a.col); });
  std::vector<Nonzero>().swap(mine);
  s.stored.reserve(grouped.sorted.size());
  for (const Nonzero& a : grouped.sorted) {
    const std::size_t row = slots.here(a.row);
    s.stored.push_back({slots.here(a.col), row == detail::Slots::npos ? remote_bit | a.row : row, a.weight});
  }
  s.x.assign(slots.count(), 0.0);
  s.y.assign(slots.count(), 0.0);
  s.owner_sum.assign(s.delegates.size(), 0.0);
  s.setup_seconds = timer.elapsed();
}

MailboxMatrix::~MailboxMatrix() = default;

std::vector<double> MailboxMatrix::multiply(std::span<const double> my_x) {
  State& s = *state_;
  const detail::Slots& slots = *s.slots;
  const mailbox::RoundRobin& own = slots.round_robin();
  if (my_x.size() != slots.owned())
    throw Error("MailboxMatrix::multiply: this rank owns " + std::to_string(slots.owned()) + " entries of x, given " +
                std::to_string(my_x.size()));
  // Reset before the first wait_empty: other ranks' products and partials may arrive from then on.
  // The delegates' x slots are left alone: their new values may already be here.
  std::copy(my_x.begin(), my_x.end(), s.x.begin());
  std::fill(s.y.begin(), s.y.end(), 0.0);
  std::fill(s.owner_sum.begin(), s.owner_sum.end(), 0.0);
  const bool any_delegates = s.delegates.size() > 0;  // the same on every rank
  // With several threads, each adds its own products into a y of its own (the callbacks add the
  // other ranks' into s.y meanwhile), summed into s.y once the products' epoch is over.
  const unsigned threads = s.box.threads();
  std::vector<std::vector<double>> partial(threads > 1 ? threads : 0);
  detail::on_threads(s.box, [&](unsigned t) {
    auto& mine = s.box.thread(t);
    // 1. Every rank gets a copy of x at each delegate.
    if (any_delegates) {
      if (t == 0)
        for (std::uint32_t i = 0; i < s.delegates.size(); ++i)
          if (own.mine(s.delegates.id(i)))
            mine.async_bcast(Entry::make(Entry::delegate_x, i, my_x[own.local(s.delegates.id(i))]));
      mine.wait_empty();
    }
    // 2. Algorithm 2: each kept nonzero times x, added here or sent to the row's owner; thread t
    // takes the nonzeros [n t / T, n (t + 1) / T).
    double* y = s.y.data();
    if (threads > 1) {
      partial[t].assign(s.y.size(), 0.0);
      y = partial[t].data();
    }
    const std::size_t n = s.stored.size();
    for (std::size_t k = n * t / threads; k < n * (t + 1) / threads; ++k) {
      const Stored& a = s.stored[k];
      const double product = a.weight * s.x[a.col_slot];
      if ((a.row_target & remote_bit) != 0) {
        const vertex_t row = a.row_target & ~remote_bit;
        mine.async_send(own.owner(row), Entry::make(Entry::product, row, product));
      } else {
        y[a.row_target] += product;
      }
    }
    mine.wait_empty();  // every thread's products are in: its partial is final
    if (t == 0)
      for (const std::vector<double>& p : partial)
        for (std::size_t i = 0; i < p.size(); ++i) s.y[i] += p[i];
    // 3. The all-reduce of the delegates' partial sums: to the owner, summed, broadcast back.
    if (any_delegates) {
      if (t == 0)
        for (std::uint32_t i = 0; i < s.delegates.size(); ++i) {
          const double sum = s.y[slots.of_delegate(i)];
          if (sum != 0.0) mine.async_send(own.owner(s.delegates.id(i)), Entry::make(Entry::delegate_partial, i, sum));
        }
      mine.wait_empty();
      if (t == 0)
        for (std::uint32_t i = 0; i < s.delegates.size(); ++i)
          if (own.mine(s.delegates.id(i))) mine.async_bcast(Entry::make(Entry::delegate_total, i, s.owner_sum[i]));
      mine.wait_empty();
    }
  });
  return slots.owned_values(s.y);
}

graph::vertex_t MailboxMatrix::num_vertices() const { return state_->num_vertices; }
const Delegates& MailboxMatrix::delegates() const { return state_->delegates; }
std::uint64_t MailboxMatrix::local_nonzeros() const { return state_->stored.size(); }
mailbox::Stats MailboxMatrix::stats() const { return state_->box.local_stats(); }
const mailbox::Stats& MailboxMatrix::setup_stats() const { return state_->setup_stats; }
double MailboxMatrix::setup_seconds() const { return state_->setup_seconds; }

}  // namespace courier::algo
