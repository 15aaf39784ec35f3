#pragma once
// MpiMessages: the la team's messages over raw MPI, as Graphite realises MPI*X (paper 003,
// section 7): MPI_THREAD_MULTIPLE, and the members themselves post every call. x_k goes to its
// column group by MPI_Ibcast over a communicator of the ranks in that group (MPI_Comm_split): its
// size first, then the data, so a receiver needs no bound on it. Partial ys go by MPI_Isend and are
// taken with MPI_Improbe / MPI_Mrecv (matched probes: two threads never take the same message) on
// one duplicate of MPI_COMM_WORLD per member index, so the communicator names the receiving member.
// The baseline that Courier's comm endpoints are measured against (la --endpoints mpi).
#include <mpi.h>

#include <functional>
#include <mutex>
#include <span>
#include <utility>
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

  // Column group k's broadcast: collective over the world, every rank in the same order of k.
  // `member`: this rank takes part (the leader's, or one with followers in the group); `root`:
  // the leader's rank.
  void add_group(unsigned k, bool member, rank_t root);
  // The root's x_k (unchanged until `pending` is idle).
  void broadcast(unsigned k, std::span<const std::byte> data, Pending& pending);
  // The next x_k, for `member` of this rank: delivered as an arrival tagged `tag`.
  void expect(unsigned k, unsigned member, comm::tag_t tag);

  // One look, by one thread at a time (others return at once): finished sends and broadcasts, then
  // one arrival per member. True if anything moved.
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

  struct Group {
    MPI_Comm comm = MPI_COMM_NULL;  // none: nobody outside the leader's rank reads x_k
    int root = 0;                   // in comm
    rank_t root_rank = 0;           // in the world
    std::uint64_t size = 0;         // the size's buffer (root or receiver; one broadcast at a time)
  };
  struct Broadcast {
    MPI_Request request = MPI_REQUEST_NULL;
    unsigned k = 0, member = 0;
    Pending* pending = nullptr;  // the root's
    bool size_only = false;      // a receiver's first step: the data is posted when it completes
    comm::tag_t tag = 0;
    comm::Buffer buffer;  // a receiver's data
  };
  std::vector<Group> groups_;                          // by segment
  std::vector<Broadcast> broadcasts_;                  // in flight, under sends_mutex_
  std::vector<std::pair<unsigned, Arrival>> arrived_;  // broadcasts done, to deliver (poll's)
};

}  // namespace courier::la
