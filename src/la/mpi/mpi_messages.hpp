#pragma once
// MpiMessages: the la team's messages over raw MPI, as Graphite realises MPI*X (paper 003,
// section 7): MPI_THREAD_MULTIPLE, and the members themselves post every call. Groups of tiles
// are communicators of the ranks in them (MPI_Comm_split):
//   x_k      MPI_Ibcast over column group k's communicator: its size first, then the data, so a
//            receiver needs no bound on it;
//   y_k      MPI_Isend over row group k's communicator to its leader's rank, which keeps one
//            MPI_Irecv pre-posted per follower on other ranks, each into a buffer of the
//            partial's largest size (MPI_Get_count gives the size that came), posted again as it
//            completes; the communicator names the segment and its leader the member;
//   team     the team's collectives (tags of Team::kTeamKind) likewise on a duplicate of the
//            world communicator, pre-posted for member 0.
// MPI tags carry only the la tag's kind (kind << 32 | segment): the communicator names the rest.
// The baseline that Courier's comm endpoints are measured against (la --endpoints mpi).
#include <mpi.h>

#include <functional>
#include <memory>
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

  // Collective over MPI_COMM_WORLD (every rank makes its team at the same point); the team's
  // collectives are messages of `collective_bytes`. Error when MPI is not running with
  // MPI_THREAD_MULTIPLE.
  MpiMessages(std::size_t collective_bytes, comm::BufferPool& pool, Deliver deliver);
  ~MpiMessages();
  MpiMessages(const MpiMessages&) = delete;
  MpiMessages& operator=(const MpiMessages&) = delete;

  // As Team::send, for a partial y_k (on row group k, added before) or a team collective: `data`
  // stays unchanged until `pending` is idle.
  void send(rank_t rank, unsigned to, comm::tag_t tag, std::span<const std::byte> data, Pending& pending);

  // Column group k's broadcast: collective over the world, every rank in the same order of k.
  // `member`: this rank takes part (the leader's, or one with followers in the group); `root`:
  // the leader's rank.
  void add_group(unsigned k, bool member, rank_t root);
  // The root's x_k (unchanged until `pending` is idle).
  void broadcast(unsigned k, std::span<const std::byte> data, Pending& pending);
  // The next x_k, for `member` of this rank: delivered as an arrival tagged `tag`.
  void expect(unsigned k, unsigned member, comm::tag_t tag);

  // Row group k's partials: collective over the world, every rank in the same order of k.
  // `member`: this rank takes part (the leader's, or one with followers that send to it); `root`:
  // the leader's rank and `leader` its member there, which gets `receives` partials an iteration,
  // each at most `max_bytes`.
  void add_row_group(unsigned k, bool member, rank_t root, unsigned leader, unsigned receives, std::size_t max_bytes);

  // One look, by one thread at a time (others return at once): finished sends and broadcasts, then
  // the receives that came. True if anything moved.
  bool poll();

 private:
  // A communicator whose messages land in pre-posted receives.
  struct Inbox {
    MPI_Comm comm = MPI_COMM_NULL;
    unsigned segment = 0;            // the la tag's low half
    unsigned member = 0;             // who gets what comes
    std::size_t bytes = 0;           // the receive buffers' size
    std::vector<rank_t> world;       // by rank in comm
    std::vector<int> in_comm;        // by world rank; MPI_UNDEFINED if not in comm
  };
  void map_ranks(Inbox& inbox);
  void post(std::size_t slot);  // a fresh receive in receive slot `slot`

  comm::BufferPool& pool_;
  Deliver deliver_;
  std::mutex sends_mutex_;
  std::vector<MPI_Request> requests_;  // in flight, with the Pending each completes
  std::vector<Pending*> pendings_;
  std::mutex poll_mutex_;
  std::vector<int> done_;  // MPI_Testsome's indices

  Inbox team_;                                // the collectives
  std::vector<std::unique_ptr<Inbox>> rows_;  // by segment (null: not in row group k)
  // The pre-posted receives (under poll_mutex_), by slot: the request, its inbox, its buffer.
  std::vector<MPI_Request> receives_;
  std::vector<const Inbox*> receive_inbox_;
  std::vector<comm::Buffer> receive_buffers_;
  std::vector<MPI_Status> statuses_;
  std::vector<std::pair<unsigned, Arrival>> received_;  // poll's, to deliver

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
