#include "courier/core/placement.hpp"

#include <hwloc.h>

#include <cstdlib>
#include <utility>

#include "process_topology.hpp"

namespace courier {

hwloc_topology_t process_topology() {
  static hwloc_topology_t topo = [] {
    hwloc_topology_t t = nullptr;
    if (hwloc_topology_init(&t) != 0) return static_cast<hwloc_topology_t>(nullptr);
    if (hwloc_topology_load(t) != 0) {
      hwloc_topology_destroy(t);
      return static_cast<hwloc_topology_t>(nullptr);
    }
    return t;
  }();
  return topo;
}

namespace {

std::optional<int> env_int(const char* name) {
  const char* value = std::getenv(name);
  if (value == nullptr || *value == '\0') return std::nullopt;
  char* end = nullptr;
  const long parsed = std::strtol(value, &end, 10);
  if (end == value || parsed < 0) return std::nullopt;
  return static_cast<int>(parsed);  // "2(x3)" (Slurm) reads as 2
}

}  // namespace

LocalRank local_rank_from_launcher() {
  const std::pair<const char*, const char*> launchers[] = {
      {"OMPI_COMM_WORLD_LOCAL_RANK", "OMPI_COMM_WORLD_LOCAL_SIZE"},
      {"MPI_LOCALRANKID", "MPI_LOCALNRANKS"},
      {"SLURM_LOCALID", "SLURM_TASKS_PER_NODE"},
  };
  for (const auto& [rank_name, size_name] : launchers) {
    const auto rank = env_int(rank_name), ranks = env_int(size_name);
    if (rank && ranks && *rank < *ranks) return {*rank, *ranks};
  }
  return {};
}

std::vector<unsigned> allowed_pus() { return Machine::of_this_process().cores_first(); }

std::vector<unsigned> plan_placement(const std::vector<unsigned>& allowed, unsigned threads, int rank, int ranks) {
  if (threads == 0 || ranks < 1 || rank < 0 || rank >= ranks) return {};
  const std::size_t need = static_cast<std::size_t>(threads) * static_cast<std::size_t>(ranks);
  if (need > allowed.size()) return {};
  const auto first = allowed.begin() + static_cast<std::ptrdiff_t>(threads) * rank;
  return {first, first + threads};
}

std::vector<unsigned> plan_numa_placement(const Machine& machine, unsigned threads, int rank, int ranks) {
  if (threads == 0 || ranks < 1 || rank < 0 || rank >= ranks) return {};
  const auto packages = static_cast<long>(machine.packages.size());
  const auto package_of = [&](int r) { return static_cast<long>(r) * packages / ranks; };
  bool fits = packages > 0;
  for (long p = 0; p < packages && fits; ++p) {
    std::size_t sharing = 0;
    for (int r = 0; r < ranks; ++r) sharing += package_of(r) == p;
    fits = sharing * threads <= machine.cores_first(static_cast<std::size_t>(p)).size();
  }
  if (!fits) return plan_placement(machine.cores_first(), threads, rank, ranks);
  const long mine = package_of(rank);
  int first = rank;
  while (first > 0 && package_of(first - 1) == mine) --first;
  const std::vector<unsigned> pus = machine.cores_first(static_cast<std::size_t>(mine));
  const auto at = pus.begin() + static_cast<std::ptrdiff_t>(threads) * (rank - first);
  return {at, at + threads};
}

std::vector<unsigned> placement_for(unsigned threads, const PlacementOptions& options) {
  if (!options.pin) return {};
  LocalRank local = local_rank_from_launcher();
  if (options.local_rank >= 0) local.rank = options.local_rank;
  if (options.local_ranks >= 0) local.ranks = options.local_ranks;
  return plan_numa_placement(Machine::of_this_process(), threads, local.rank, local.ranks);
}

bool pin_this_thread(unsigned pu) {
  hwloc_topology_t topo = process_topology();
  if (topo == nullptr) return false;
  hwloc_bitmap_t set = hwloc_bitmap_alloc();
  hwloc_bitmap_only(set, pu);
  const bool ok = hwloc_set_cpubind(topo, set, HWLOC_CPUBIND_THREAD) == 0;
  hwloc_bitmap_free(set);
  return ok;
}

std::optional<ThreadBinding> ThreadBinding::current() {
  hwloc_topology_t topo = process_topology();
  if (topo == nullptr) return std::nullopt;
  ThreadBinding binding;
  hwloc_bitmap_t set = hwloc_bitmap_alloc();
  binding.set_ = set;
  if (hwloc_get_cpubind(topo, set, HWLOC_CPUBIND_THREAD) != 0) return std::nullopt;
  return binding;
}

ThreadBinding::ThreadBinding(ThreadBinding&& other) noexcept : set_(other.set_) { other.set_ = nullptr; }

ThreadBinding& ThreadBinding::operator=(ThreadBinding&& other) noexcept {
  std::swap(set_, other.set_);
  return *this;
}

ThreadBinding::~ThreadBinding() {
  if (set_ != nullptr) hwloc_bitmap_free(static_cast<hwloc_bitmap_t>(set_));
}

void ThreadBinding::restore() const {
  if (set_ != nullptr && process_topology() != nullptr)
    hwloc_set_cpubind(process_topology(), static_cast<hwloc_bitmap_t>(set_), HWLOC_CPUBIND_THREAD);
}

}  // namespace courier
