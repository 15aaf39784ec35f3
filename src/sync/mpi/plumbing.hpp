#pragma once
// Plumbing: what both MPI channels share: a duplicate of the program's communicator, the communication
// thread that alone calls MPI on it, the buffer pool with its footprint, and the collectives,
// which run on the communication thread as MPI_Iallreduce while it keeps progressing the channel.
#include <mpi.h>

#include <cstdint>

#include "comm_thread.hpp"
#include "courier/comm/buffer_pool.hpp"
#include "courier/sync/channel.hpp"

namespace courier::sync::mpi {

class Plumbing {
 public:
  // Checks the thread level (see mpi_probe_channel.hpp) and duplicates `comm`. `name` names the
  // channel in error messages.
  Plumbing(MPI_Comm comm, const char* name);
  // The owner stops the thread first (its progress function uses the owner's members).
  ~Plumbing();
  Plumbing(const Plumbing&) = delete;
  Plumbing& operator=(const Plumbing&) = delete;

  MPI_Comm comm() const { return comm_; }
  rank_t rank() const { return rank_; }
  rank_t ranks() const { return ranks_; }
  const char* name() const { return name_; }
  CommThread& thread() { return thread_; }
  comm::BufferPool& pool() { return pool_; }
  const comm::BufferPool& pool() const { return pool_; }

  // On the communication thread: waits for `request`, progressing the channel meanwhile.
  void wait(MPI_Request& request);

  std::uint64_t sum_all(std::uint64_t value);
  double sum_all(double value);
  double max_all(double value);

  // Throws Error unless 0 <= peer < ranks().
  void check_peer(rank_t peer, const char* where) const;

 private:
  template <class T>
  T allreduce(T value, MPI_Datatype type, MPI_Op op);

  const char* name_;
  MPI_Comm comm_ = MPI_COMM_NULL;
  rank_t rank_ = 0, ranks_ = 1;
  comm::BufferPool pool_;
  CommThread thread_;
};

}  // namespace courier::sync::mpi
