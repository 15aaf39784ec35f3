#include "mpi_messages.hpp"

#include <fmt/format.h>

#include "courier/core/error.hpp"
#include "courier/net/mpi_check.hpp"

namespace courier::la {

namespace {

constexpr comm::tag_t kSegmentMask = 0xffffffffu;

int world_rank() {
  int rank = 0;
  net::mpi_check(MPI_Comm_rank(MPI_COMM_WORLD, &rank), "MPI_Comm_rank");
  return rank;
}

int world_size() {
  int size = 0;
  net::mpi_check(MPI_Comm_size(MPI_COMM_WORLD, &size), "MPI_Comm_size");
  return size;
}

}  // namespace

MpiMessages::MpiMessages(std::size_t collective_bytes, comm::BufferPool& pool, Deliver deliver)
    : pool_(pool), deliver_(std::move(deliver)) {
  int initialized = 0, provided = 0;
  net::mpi_check(MPI_Initialized(&initialized), "MPI_Initialized");
  if (!initialized)
    throw InputError("la --endpoints mpi runs under an MPI launcher (mpirun); without one use the default");
  net::mpi_check(MPI_Query_thread(&provided), "MPI_Query_thread");
  if (provided < MPI_THREAD_MULTIPLE)
    throw InputError("la --endpoints mpi needs MPI_THREAD_MULTIPLE, which this MPI did not provide");
  net::mpi_check(MPI_Comm_dup(MPI_COMM_WORLD, &team_.comm), "MPI_Comm_dup");
  team_.bytes = collective_bytes;
  map_ranks(team_);
  // A rank is at most one collective ahead of another (team.hpp): two from every other rank.
  std::lock_guard lock(poll_mutex_);
  for (int r = 0; r < 2 * (world_size() - 1); ++r) {
    receives_.push_back(MPI_REQUEST_NULL);
    receive_inbox_.push_back(&team_);
    receive_buffers_.emplace_back();
    post(receives_.size() - 1);
  }
}

// A team's user ends with its sends completed and a barrier, so only the pre-posted receives are
// in flight here: cancelled, and waited for, before their communicators go.
MpiMessages::~MpiMessages() {
  for (MPI_Request& request : receives_) {
    if (request == MPI_REQUEST_NULL) continue;
    MPI_Cancel(&request);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
  }
  for (comm::Buffer& buffer : receive_buffers_) pool_.recycle(std::move(buffer));
  MPI_Comm_free(&team_.comm);
  for (auto& row : rows_)
    if (row) MPI_Comm_free(&row->comm);
  for (Group& g : groups_)
    if (g.comm != MPI_COMM_NULL) MPI_Comm_free(&g.comm);
}

void MpiMessages::map_ranks(Inbox& inbox) {
  int size = 0;
  net::mpi_check(MPI_Comm_size(inbox.comm, &size), "MPI_Comm_size");
  MPI_Group world_group, group;
  net::mpi_check(MPI_Comm_group(MPI_COMM_WORLD, &world_group), "MPI_Comm_group");
  net::mpi_check(MPI_Comm_group(inbox.comm, &group), "MPI_Comm_group");
  std::vector<int> mine(static_cast<std::size_t>(size)), world(static_cast<std::size_t>(size));
  for (int r = 0; r < size; ++r) mine[static_cast<std::size_t>(r)] = r;
  net::mpi_check(MPI_Group_translate_ranks(group, size, mine.data(), world_group, world.data()),
                 "MPI_Group_translate_ranks");
  MPI_Group_free(&world_group);
  MPI_Group_free(&group);
  inbox.world.assign(world.begin(), world.end());
  inbox.in_comm.assign(static_cast<std::size_t>(world_size()), MPI_UNDEFINED);
  for (int r = 0; r < size; ++r) inbox.in_comm[static_cast<std::size_t>(world[static_cast<std::size_t>(r)])] = r;
}

void MpiMessages::post(std::size_t slot) {
  const Inbox& inbox = *receive_inbox_[slot];
  comm::Buffer& buffer = receive_buffers_[slot];
  buffer = pool_.acquire(inbox.bytes);
  buffer.resize(inbox.bytes);
  net::mpi_check(MPI_Irecv(buffer.data(), net::mpi_count(inbox.bytes, "la --endpoints mpi: a partial y"), MPI_BYTE,
                           MPI_ANY_SOURCE, MPI_ANY_TAG, inbox.comm, &receives_[slot]),
                 "MPI_Irecv");
}

void MpiMessages::add_row_group(unsigned k, bool member, rank_t root, unsigned leader, unsigned receives,
                                std::size_t max_bytes) {
  if (rows_.size() <= k) rows_.resize(k + 1);
  MPI_Comm comm = MPI_COMM_NULL;
  net::mpi_check(MPI_Comm_split(MPI_COMM_WORLD, member ? static_cast<int>(k) : MPI_UNDEFINED, world_rank(), &comm),
                 "MPI_Comm_split");
  if (comm == MPI_COMM_NULL) return;
  auto inbox = std::make_unique<Inbox>();
  inbox->comm = comm;
  inbox->segment = k;
  inbox->member = leader;
  inbox->bytes = max_bytes;
  map_ranks(*inbox);
  if (inbox->in_comm.at(static_cast<std::size_t>(root)) == MPI_UNDEFINED)
    throw Error("la --endpoints mpi: a row group's leader is not in its communicator");
  std::lock_guard lock(poll_mutex_);
  if (world_rank() == static_cast<int>(root))
    for (unsigned r = 0; r < receives; ++r) {
      receives_.push_back(MPI_REQUEST_NULL);
      receive_inbox_.push_back(inbox.get());
      receive_buffers_.emplace_back();
      post(receives_.size() - 1);
    }
  rows_[k] = std::move(inbox);
}

void MpiMessages::add_group(unsigned k, bool member, rank_t root) {
  if (groups_.size() <= k) groups_.resize(k + 1);
  Group& g = groups_[k];
  net::mpi_check(MPI_Comm_split(MPI_COMM_WORLD, member ? static_cast<int>(k) : MPI_UNDEFINED, world_rank(), &g.comm),
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

// `to` is implied: a partial goes to its row group's leader, a collective to member 0.
void MpiMessages::send(rank_t rank, unsigned, comm::tag_t tag, std::span<const std::byte> data, Pending& pending) {
  const comm::tag_t kind = tag >> 32, k = tag & kSegmentMask;
  const Inbox* inbox = kind == Team::kTeamKind ? &team_ : k < rows_.size() ? rows_[k].get() : nullptr;
  if (inbox == nullptr || (kind == Team::kTeamKind && k != 0))
    throw Error(fmt::format("la --endpoints mpi: a message tagged {:#x} for no row group of this rank", tag));
  const int to_rank = inbox->in_comm.at(static_cast<std::size_t>(rank));
  if (to_rank == MPI_UNDEFINED) throw Error(fmt::format("la --endpoints mpi: rank {} is not in row group {}", rank, k));
  MPI_Request request = MPI_REQUEST_NULL;
  pending.add();
  net::mpi_check(MPI_Isend(data.data(), net::mpi_count(data.size(), "la --endpoints mpi: a message"), MPI_BYTE,
                           to_rank, static_cast<int>(kind), inbox->comm, &request),
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
  // The receives that came: each handed over with its buffer, and posted again at once.
  if (!receives_.empty()) {
    done_.resize(receives_.size());
    statuses_.resize(receives_.size());
    int count = 0;
    net::mpi_check(MPI_Testsome(static_cast<int>(receives_.size()), receives_.data(), &count, done_.data(),
                                statuses_.data()),
                   "MPI_Testsome");
    if (count > 0 && count != MPI_UNDEFINED) {
      moved = true;
      for (int c = 0; c < count; ++c) {
        const auto slot = static_cast<std::size_t>(done_[static_cast<std::size_t>(c)]);
        const MPI_Status& status = statuses_[static_cast<std::size_t>(c)];
        const Inbox& inbox = *receive_inbox_[slot];
        int bytes = 0;
        net::mpi_check(MPI_Get_count(&status, MPI_BYTE, &bytes), "MPI_Get_count");
        comm::Buffer buffer = std::move(receive_buffers_[slot]);
        buffer.resize(static_cast<std::size_t>(bytes));
        const comm::tag_t tag = (static_cast<comm::tag_t>(status.MPI_TAG) << 32) | inbox.segment;
        received_.push_back(
            {inbox.member, Arrival{inbox.world.at(static_cast<std::size_t>(status.MPI_SOURCE)), tag, std::move(buffer)}});
        post(slot);
      }
      for (auto& [member, arrival] : received_) deliver_(member, std::move(arrival));
      received_.clear();
    }
  }
  return moved;
}

}  // namespace courier::la
