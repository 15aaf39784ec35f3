#pragma once
// MpiMessages: the la team's messages over raw MPI, as Graphite realises MPI*X (paper 003,
// section 7): MPI_THREAD_MULTIPLE, and the members themselves post MPI_Isend; what arrives is
// taken with MPI_Improbe / MPI_Mrecv (matched probes, so two threads never take the same message)
// on one duplicate of MPI_COMM_WORLD per member index, so the communicator names the receiving
// member. The baseline that Courier's comm endpoints are measured against (la --endpoints mpi).
#include <mpi.h>

#include <functional>
#include <mutex>
#include <span>
#include <vector>

#include "courier/comm/buffer_pool.hpp"
#include "courier/la/team.hpp"

namespace courier::la {

class MpiMessages {
 public:
  using Deliver = std::function<void(unsigned member, Arrival&& arrival)>;

  // Collective over MPI_COMM_WORLD (every rank makes its team at the same point). Error when MPI
  // is not running with MPI_THREAD_MULTIPLE or its tags cannot name `segments` segments.
  MpiMessages(unsigned members, unsigned segments, comm::BufferPool& pool, Deliver deliver);
  ~MpiMessages();
  MpiMessages(const MpiMessages&) = delete;
  MpiMessages& operator=(const MpiMessages&) = delete;

  // As Team::send: `data` stays unchanged until `pending` is idle.
  void send(rank_t rank, unsigned to, comm::tag_t tag, std::span<const std::byte> data, Pending& pending);

  // One look, by one thread at a time (others return at once): finished sends, then one arrival
  // per member. True if anything moved.
  bool poll();

 private:
  std::vector<MPI_Comm> comms_;  // by member index
  comm::BufferPool& pool_;
  Deliver deliver_;
  std::mutex sends_mutex_;
  std::vector<MPI_Request> requests_;  // in flight, with the Pending each completes
  std::vector<Pending*> pendings_;
  std::mutex poll_mutex_;
  std::vector<int> done_;  // MPI_Testsome's indices
};

}  // namespace courier::la
