#include "courier/dsl/runtime/window.hpp"

#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string_view>

#include "courier/core/error.hpp"
#include "courier/vertex/engine.hpp"

#ifdef COURIER_HAVE_MPI
#include <mpi.h>

#include "courier/net/mpi_check.hpp"
#endif

namespace courier::dsl::rt {

namespace {

// What a rank tells the others of its masters: which process holds them, and where.
struct Offer {
  std::int64_t process;
  std::uintptr_t base;
};

// COURIER_DSL_WINDOW=rma: MPI_Get and MPI_Accumulate even within one node, as across nodes (the
// tests reach that path on one machine so).
[[maybe_unused]] bool rma_requested() {
  const char* value = std::getenv("COURIER_DSL_WINDOW");
  return value != nullptr && std::string_view(value) == "rma";
}

}  // namespace

#ifdef COURIER_HAVE_MPI
// A window over MPI_COMM_WORLD's duplicate, locked for every target for its whole life (passive
// target); a rank's gets take turns, as StarPlat's take the window's lock. MPI allocates it (where
// Open MPI's windows over memory of the program's own need a transport that can read another
// process, and refuse MPI_THREAD_MULTIPLE otherwise), so each epoch starts by copying the rank's
// slots in (and one of accumulates ends by copying them out). When every rank is on one node the
// window is MPI's shared memory and an access is a load or an atomic update of the owner's slot,
// which is what an MPI_Get within a node amounts to: MPICH 4.0.2 (ch4) serves a get only as its
// target polls, 0.4 ms a get with three ranks on two cores.
struct Window::Mpi {
  MPI_Comm comm = MPI_COMM_NULL;
  MPI_Win win = MPI_WIN_NULL;
  std::byte* memory = nullptr;
  std::byte* slots = nullptr;
  std::size_t bytes = 0;
  mutable std::mutex turn;
};
#else
struct Window::Mpi {};
#endif

Window::Window(vertex::Engine& engine, void* base, std::size_t element, std::size_t count, Use use)
    : engine_(engine), element_(element), use_(use) {
  const Offer mine{static_cast<std::int64_t>(::getpid()), reinterpret_cast<std::uintptr_t>(base)};
  sync::Bytes bytes(sizeof(Offer));
  std::memcpy(bytes.data(), &mine, sizeof(Offer));
  const auto all = engine.exchange(std::vector<sync::Bytes>(static_cast<std::size_t>(engine.ranks()), bytes));
  bool shared = true;
  for (const sync::Bytes& theirs : all) {
    Offer offer;
    std::memcpy(&offer, theirs.data(), sizeof(Offer));
    shared = shared && offer.process == mine.process;
    bases_.push_back(reinterpret_cast<std::byte*>(offer.base));
  }
  if (shared) return;  // every rank decided alike: the pids are the same on all of them
  bases_.clear();
#ifdef COURIER_HAVE_MPI
  int initialized = 0, size = 0, rank = 0;
  net::mpi_check(MPI_Initialized(&initialized), "MPI_Initialized");
  if (initialized) {
    net::mpi_check(MPI_Comm_size(MPI_COMM_WORLD, &size), "MPI_Comm_size");
    net::mpi_check(MPI_Comm_rank(MPI_COMM_WORLD, &rank), "MPI_Comm_rank");
  }
  if (!initialized || size != engine.ranks() || rank != engine.rank())
    throw Error(
        "dsl: the naive generation's one-sided accesses need the ranks to be one process's or MPI_COMM_WORLD's");
  mpi_ = std::make_unique<Mpi>();
  mpi_->slots = static_cast<std::byte*>(base);
  mpi_->bytes = element * count;
  net::mpi_check(MPI_Comm_dup(MPI_COMM_WORLD, &mpi_->comm), "MPI_Comm_dup");
  net::mpi_check(MPI_Comm_set_errhandler(mpi_->comm, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler");
  MPI_Comm node = MPI_COMM_NULL;
  net::mpi_check(MPI_Comm_split_type(mpi_->comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node), "MPI_Comm_split_type");
  int node_size = 0;
  net::mpi_check(MPI_Comm_size(node, &node_size), "MPI_Comm_size");
  net::mpi_check(MPI_Comm_free(&node), "MPI_Comm_free");
  const bool one_node = node_size == size && !rma_requested();
  if (one_node) {
    net::mpi_check(MPI_Win_allocate_shared(static_cast<MPI_Aint>(mpi_->bytes), static_cast<int>(element), MPI_INFO_NULL,
                                           mpi_->comm, &mpi_->memory, &mpi_->win),
                   "MPI_Win_allocate_shared");
  } else {
    // Whole pages: MPICH 4.0.2 puts one node's windows in one shared segment, where the other
    // ranks look for a rank's slots at a page-rounded offset and its own pointer is not rounded: a
    // size not a multiple of the page sends their gets and accumulates to the wrong slots.
    const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
    const std::size_t allocated = (mpi_->bytes + page - 1) / page * page;
    net::mpi_check(MPI_Win_allocate(static_cast<MPI_Aint>(allocated), static_cast<int>(element), MPI_INFO_NULL,
                                    mpi_->comm, &mpi_->memory, &mpi_->win),
                   "MPI_Win_allocate");
  }
  net::mpi_check(MPI_Win_set_errhandler(mpi_->win, MPI_ERRORS_RETURN), "MPI_Win_set_errhandler");
  // On one node every rank's slots are reached in place, through bases_.
  for (int r = 0; one_node && r < size; ++r) {
    MPI_Aint their_bytes = 0;
    int unit = 0;
    std::byte* their_base = nullptr;
    net::mpi_check(MPI_Win_shared_query(mpi_->win, r, &their_bytes, &unit, &their_base), "MPI_Win_shared_query");
    bases_.push_back(their_base);
  }
  net::mpi_check(MPI_Win_lock_all(MPI_MODE_NOCHECK, mpi_->win), "MPI_Win_lock_all");
#else
  (void)count;
  throw Error("dsl: the naive generation's one-sided accesses across processes need MPI, which this build lacks");
#endif
}

Window::~Window() {
#ifdef COURIER_HAVE_MPI
  if (!mpi_) return;
  MPI_Win_unlock_all(mpi_->win);
  MPI_Win_free(&mpi_->win);
  MPI_Comm_free(&mpi_->comm);
#endif
}

void Window::begin_epoch() {
#ifdef COURIER_HAVE_MPI
  if (mpi_) {
    // The unified model: this rank's stores become the window's, then no rank reads before all did.
    if (mpi_->bytes > 0) std::memcpy(mpi_->memory, mpi_->slots, mpi_->bytes);
    net::mpi_check(MPI_Win_sync(mpi_->win), "MPI_Win_sync");
    net::mpi_check(MPI_Barrier(mpi_->comm), "MPI_Barrier");
    return;
  }
#endif
  engine_.sum_all(std::uint64_t{0});  // a barrier: the owners' writes happen before the gets
}

void Window::end_epoch() {
#ifdef COURIER_HAVE_MPI
  if (mpi_) {
    // Flushed at each access: every rank's accumulates have landed once all arrive here.
    net::mpi_check(MPI_Barrier(mpi_->comm), "MPI_Barrier");
    if (use_ == Use::accumulates) {
      net::mpi_check(MPI_Win_sync(mpi_->win), "MPI_Win_sync");
      if (mpi_->bytes > 0) std::memcpy(mpi_->slots, mpi_->memory, mpi_->bytes);
    }
    return;
  }
#endif
  engine_.sum_all(std::uint64_t{0});  // no owner writes again before every access of the epoch is done
}

void Window::accumulate_through_mpi([[maybe_unused]] rank_t owner, [[maybe_unused]] std::size_t index,
                                    [[maybe_unused]] const void* value, [[maybe_unused]] Element element,
                                    [[maybe_unused]] Operation operation) {
#ifdef COURIER_HAVE_MPI
  const MPI_Datatype kTypes[] = {MPI_UINT8_T, MPI_INT32_T, MPI_INT64_T, MPI_UINT64_T, MPI_FLOAT, MPI_DOUBLE};
  const MPI_Op kOperations[] = {MPI_MIN, MPI_MAX, MPI_SUM, MPI_PROD, MPI_LOR, MPI_LAND};
  const MPI_Datatype type = kTypes[static_cast<std::size_t>(element)];
  std::lock_guard lock(mpi_->turn);
  net::mpi_check(MPI_Accumulate(value, 1, type, owner, static_cast<MPI_Aint>(index), 1, type,
                                kOperations[static_cast<std::size_t>(operation)], mpi_->win),
                 "MPI_Accumulate");
  net::mpi_check(MPI_Win_flush(owner, mpi_->win), "MPI_Win_flush");
#endif
}

void Window::get(rank_t owner, std::size_t index, void* out) const {
#ifdef COURIER_HAVE_MPI
  if (bases_.empty()) {
    const int bytes = static_cast<int>(element_);
    std::lock_guard lock(mpi_->turn);
    net::mpi_check(MPI_Get(out, bytes, MPI_BYTE, owner, static_cast<MPI_Aint>(index), bytes, MPI_BYTE, mpi_->win),
                   "MPI_Get");
    net::mpi_check(MPI_Win_flush(owner, mpi_->win), "MPI_Win_flush");
    return;
  }
#endif
  std::memcpy(out, bases_[static_cast<std::size_t>(owner)] + index * element_, element_);
}

}  // namespace courier::dsl::rt
