#include "mpi_messages.hpp"

#include <fmt/format.h>

#include "courier/core/error.hpp"
#include "courier/net/mpi_check.hpp"

namespace courier::la {

namespace {

// An la tag is (kind << 32) | segment; MPI's tags are ints, so the kind goes above 20 bits.
constexpr int kSegmentBits = 20;

int mpi_tag(comm::tag_t tag) {
  return static_cast<int>(((tag >> 32) << kSegmentBits) | (tag & ((comm::tag_t{1} << kSegmentBits) - 1)));
}
comm::tag_t la_tag(int tag) {
  const auto t = static_cast<comm::tag_t>(tag);
  return ((t >> kSegmentBits) << 32) | (t & ((comm::tag_t{1} << kSegmentBits) - 1));
}

}  // namespace

MpiMessages::MpiMessages(unsigned members, unsigned segments, comm::BufferPool& pool, Deliver deliver)
    : pool_(pool), deliver_(std::move(deliver)) {
  int initialized = 0, provided = 0;
  net::mpi_check(MPI_Initialized(&initialized), "MPI_Initialized");
  if (!initialized)
    throw InputError("la --endpoints mpi runs under an MPI launcher (mpirun); without one use the default");
  net::mpi_check(MPI_Query_thread(&provided), "MPI_Query_thread");
  if (provided < MPI_THREAD_MULTIPLE)
    throw InputError("la --endpoints mpi needs MPI_THREAD_MULTIPLE, which this MPI did not provide");
  int* upper = nullptr;
  int found = 0;
  net::mpi_check(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &upper, &found), "MPI_Comm_get_attr");
  const long needed = static_cast<long>(Team::kTeamKind) << kSegmentBits;  // the largest: the team's collectives
  if (!found || *upper < needed || segments > (1u << kSegmentBits))
    throw InputError(fmt::format("la --endpoints mpi: this MPI's tags (up to {}) cannot name {} segments",
                                 found ? *upper : 0, segments));
  comms_.resize(members);
  for (MPI_Comm& c : comms_) net::mpi_check(MPI_Comm_dup(MPI_COMM_WORLD, &c), "MPI_Comm_dup");
}

// A team's user ends with its sends completed and a barrier, so nothing is in flight here.
MpiMessages::~MpiMessages() {
  for (MPI_Comm& c : comms_) MPI_Comm_free(&c);
  for (Group& g : groups_)
    if (g.comm != MPI_COMM_NULL) MPI_Comm_free(&g.comm);
}

void MpiMessages::add_group(unsigned k, bool member, rank_t root) {
  if (groups_.size() <= k) groups_.resize(k + 1);
  Group& g = groups_[k];
  int world = 0;
  net::mpi_check(MPI_Comm_rank(MPI_COMM_WORLD, &world), "MPI_Comm_rank");
  net::mpi_check(MPI_Comm_split(MPI_COMM_WORLD, member ? static_cast<int>(k) : MPI_UNDEFINED, world, &g.comm),
                 "MPI_Comm_split");
  g.root_rank = root;
  if (g.comm == MPI_COMM_NULL) return;
  MPI_Group world_group, group;
  const int root_in_world = static_cast<int>(root);
  net::mpi_check(MPI_Comm_group(MPI_COMM_WORLD, &world_group), "MPI_Comm_group");
  net::mpi_check(MPI_Comm_group(g.comm, &group), "MPI_Comm_group");
  net::mpi_check(MPI_Group_translate_ranks(world_group, 1, &root_in_world, group, &g.root),
                 "MPI_Group_translate_ranks");
  MPI_Group_free(&world_group);
  MPI_Group_free(&group);
  if (g.root == MPI_UNDEFINED) throw Error("la --endpoints mpi: a column group's leader is not in its communicator");
}

void MpiMessages::broadcast(unsigned k, std::span<const std::byte> data, Pending& pending) {
  Group& g = groups_.at(k);
  g.size = data.size();
  Broadcast size{}, values{};
  size.pending = values.pending = &pending;
  pending.add();
  pending.add();
  net::mpi_check(MPI_Ibcast(&g.size, 1, MPI_UINT64_T, g.root, g.comm, &size.request), "MPI_Ibcast");
  net::mpi_check(MPI_Ibcast(const_cast<std::byte*>(data.data()), static_cast<int>(data.size()), MPI_BYTE, g.root,
                            g.comm, &values.request),
                 "MPI_Ibcast");
  std::lock_guard lock(sends_mutex_);
  broadcasts_.push_back(std::move(size));
  broadcasts_.push_back(std::move(values));
}

void MpiMessages::expect(unsigned k, unsigned member, comm::tag_t tag) {
  Group& g = groups_.at(k);
  Broadcast size{};
  size.k = k;
  size.member = member;
  size.size_only = true;
  size.tag = tag;
  net::mpi_check(MPI_Ibcast(&g.size, 1, MPI_UINT64_T, g.root, g.comm, &size.request), "MPI_Ibcast");
  std::lock_guard lock(sends_mutex_);
  broadcasts_.push_back(std::move(size));
}

void MpiMessages::send(rank_t rank, unsigned to, comm::tag_t tag, std::span<const std::byte> data, Pending& pending) {
  MPI_Request request = MPI_REQUEST_NULL;
  pending.add();
  net::mpi_check(MPI_Isend(data.data(), static_cast<int>(data.size()), MPI_BYTE, static_cast<int>(rank), mpi_tag(tag),
                           comms_.at(to), &request),
                 "MPI_Isend");
  std::lock_guard lock(sends_mutex_);
  requests_.push_back(request);
  pendings_.push_back(&pending);
}

bool MpiMessages::poll() {
  std::unique_lock lock(poll_mutex_, std::try_to_lock);
  if (!lock.owns_lock()) return false;
  bool moved = false;
  {
    std::lock_guard sends(sends_mutex_);
    if (!requests_.empty()) {
      done_.resize(requests_.size());
      int count = 0;
      net::mpi_check(
          MPI_Testsome(static_cast<int>(requests_.size()), requests_.data(), &count, done_.data(), MPI_STATUSES_IGNORE),
          "MPI_Testsome");
      if (count > 0 && count != MPI_UNDEFINED) {
        moved = true;
        for (int k = 0; k < count; ++k) pendings_[static_cast<std::size_t>(done_[static_cast<std::size_t>(k)])]->done();
        std::size_t kept = 0;  // completed requests are MPI_REQUEST_NULL now
        for (std::size_t k = 0; k < requests_.size(); ++k)
          if (requests_[k] != MPI_REQUEST_NULL) requests_[kept] = requests_[k], pendings_[kept++] = pendings_[k];
        requests_.resize(kept);
        pendings_.resize(kept);
      }
    }
    // Broadcasts: few at a time (one per column group), tested one by one.
    for (std::size_t b = 0; b < broadcasts_.size();) {
      Broadcast& cast = broadcasts_[b];
      int finished = 0;
      net::mpi_check(MPI_Test(&cast.request, &finished, MPI_STATUS_IGNORE), "MPI_Test");
      if (!finished) {
        ++b;
        continue;
      }
      moved = true;
      if (cast.pending != nullptr) {
        cast.pending->done();
      } else if (cast.size_only) {
        // The size is in: post the data's broadcast into a buffer of that size.
        const Group& g = groups_[cast.k];
        cast.buffer = pool_.acquire(g.size);
        cast.buffer.resize(g.size);
        cast.size_only = false;
        net::mpi_check(
            MPI_Ibcast(cast.buffer.data(), static_cast<int>(g.size), MPI_BYTE, g.root, g.comm, &cast.request),
            "MPI_Ibcast");
        ++b;
        continue;
      } else {
        arrived_.push_back({cast.member, Arrival{groups_[cast.k].root_rank, cast.tag, std::move(cast.buffer)}});
      }
      broadcasts_[b] = std::move(broadcasts_.back());
      broadcasts_.pop_back();
    }
  }
  // Delivered outside the lock: a handler may send.
  for (auto& [member, arrival] : arrived_) deliver_(member, std::move(arrival));
  arrived_.clear();
  for (unsigned member = 0; member < comms_.size(); ++member) {
    int flag = 0;
    MPI_Message message;
    MPI_Status status;
    net::mpi_check(MPI_Improbe(MPI_ANY_SOURCE, MPI_ANY_TAG, comms_[member], &flag, &message, &status), "MPI_Improbe");
    if (!flag) continue;
    int bytes = 0;
    net::mpi_check(MPI_Get_count(&status, MPI_BYTE, &bytes), "MPI_Get_count");
    comm::Buffer buffer = pool_.acquire(static_cast<std::size_t>(bytes));
    buffer.resize(static_cast<std::size_t>(bytes));
    net::mpi_check(MPI_Mrecv(buffer.data(), bytes, MPI_BYTE, &message, MPI_STATUS_IGNORE), "MPI_Mrecv");
    deliver_(member, Arrival{static_cast<rank_t>(status.MPI_SOURCE), la_tag(status.MPI_TAG), std::move(buffer)});
    moved = true;
  }
  return moved;
}

}  // namespace courier::la
