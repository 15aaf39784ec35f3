#include "plumbing.hpp"

#include <atomic>
#include <string>

#include "courier/core/backoff.hpp"
#include "courier/core/error.hpp"
#include "courier/net/mpi_check.hpp"
#include "courier/sync/wait.hpp"

namespace courier::sync::mpi {

namespace {

// Channels alive in this process: each has its own MPI thread, so two at once need MULTIPLE.
std::atomic<int> live_channels{0};

// Checked first of all: no MPI call is legal before MPI_Init.
int ranks_of(MPI_Comm comm, const char* name) {
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (!initialized) throw Error(std::string(name) + ": MPI is not initialised; call MPI_Init_thread first");
  int size = 1;
  net::mpi_check(MPI_Comm_size(comm, &size), "MPI_Comm_size");
  return size;
}

}  // namespace

Plumbing::Plumbing(MPI_Comm comm, const char* name)
    : name_(name), pool_(static_cast<std::size_t>(4 * ranks_of(comm, name) + 8)) {
  int provided = MPI_THREAD_SINGLE;
  net::mpi_check(MPI_Query_thread(&provided), "MPI_Query_thread");
  if (provided < MPI_THREAD_SERIALIZED)
    throw Error(std::string(name) +
                ": needs MPI_THREAD_SERIALIZED or more (its communication thread is not the main thread); "
                "call MPI_Init_thread with MPI_THREAD_MULTIPLE");
  if (provided < MPI_THREAD_MULTIPLE && live_channels.load() > 0)
    throw Error(std::string(name) +
                ": another MPI channel is alive and each has its own MPI thread; at MPI_THREAD_SERIALIZED only "
                "one may exist at a time: call MPI_Init_thread with MPI_THREAD_MULTIPLE");
  net::mpi_check(MPI_Comm_dup(comm, &comm_), "MPI_Comm_dup");
  ++live_channels;
  // Errors on the channel's communicator come back as codes, which net::mpi_check() turns into exceptions.
  MPI_Comm_set_errhandler(comm_, MPI_ERRORS_RETURN);
  MPI_Comm_rank(comm_, &rank_);
  MPI_Comm_size(comm_, &ranks_);
}

Plumbing::~Plumbing() {
  thread_.stop();
  if (comm_ != MPI_COMM_NULL) MPI_Comm_free(&comm_);
  --live_channels;
}

void Plumbing::wait(MPI_Request& request) {
  Backoff backoff(kPhaseWait);
  for (;;) {
    int done = 0;
    net::mpi_check(MPI_Test(&request, &done, MPI_STATUS_IGNORE), "MPI_Test");
    if (done) return;
    if (thread_.progress_once() == Activity::worked)
      backoff.reset();
    else
      backoff.pause();
  }
}

template <class T>
T Plumbing::allreduce(T value, MPI_Datatype type, MPI_Op op) {
  thread_.rethrow_if_failed();
  return thread_.call([&] {
    T result{};
    MPI_Request request;
    net::mpi_check(MPI_Iallreduce(&value, &result, 1, type, op, comm_, &request), "MPI_Iallreduce");
    wait(request);
    return result;
  });
}

std::uint64_t Plumbing::sum_all(std::uint64_t value) { return allreduce(value, MPI_UINT64_T, MPI_SUM); }
double Plumbing::sum_all(double value) { return allreduce(value, MPI_DOUBLE, MPI_SUM); }
double Plumbing::max_all(double value) { return allreduce(value, MPI_DOUBLE, MPI_MAX); }

void Plumbing::check_peer(rank_t peer, const char* where) const {
  if (peer < 0 || peer >= ranks_)
    throw Error(std::string(name_) + ": " + where + " to rank " + std::to_string(peer) + " of " +
                std::to_string(ranks_));
}

}  // namespace courier::sync::mpi
