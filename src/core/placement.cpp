#include "courier/core/placement.hpp"

#include <hwloc.h>

#include <cstdlib>
#include <utility>

namespace courier {

namespace {

// One topology for the process: loading it reads /sys, which takes milliseconds.
hwloc_topology_t topology() {
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

std::vector<unsigned> allowed_pus() {
  std::vector<unsigned> pus;
  hwloc_topology_t topo = topology();
  if (topo == nullptr) return pus;
  hwloc_bitmap_t allowed = hwloc_bitmap_alloc();
  if (hwloc_get_cpubind(topo, allowed, HWLOC_CPUBIND_PROCESS) != 0)
    hwloc_bitmap_copy(allowed, hwloc_topology_get_allowed_cpuset(topo));
  // Round r takes the r-th allowed PU of every core, so threads fill cores before hyperthreads.
  const int cores = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE);
  for (unsigned round = 0;; ++round) {
    bool any = false;
    for (int c = 0; c < cores; ++c) {
      hwloc_obj_t core = hwloc_get_obj_by_type(topo, HWLOC_OBJ_CORE, static_cast<unsigned>(c));
      unsigned seen = 0;
      for (hwloc_obj_t pu = hwloc_get_next_obj_inside_cpuset_by_type(topo, core->cpuset, HWLOC_OBJ_PU, nullptr);
           pu != nullptr; pu = hwloc_get_next_obj_inside_cpuset_by_type(topo, core->cpuset, HWLOC_OBJ_PU, pu)) {
        if (!hwloc_bitmap_isset(allowed, pu->os_index)) continue;
        if (seen++ == round) {
          pus.push_back(pu->os_index);
          any = true;
          break;
        }
      }
    }
    if (!any) break;
  }
  if (cores <= 0) {  // no core level: PUs in order
    unsigned id;
    hwloc_bitmap_foreach_begin(id, allowed) pus.push_back(id);
    hwloc_bitmap_foreach_end();
  }
  hwloc_bitmap_free(allowed);
  return pus;
}

std::vector<unsigned> plan_placement(const std::vector<unsigned>& allowed, unsigned threads, int rank, int ranks) {
  if (threads == 0 || ranks < 1 || rank < 0 || rank >= ranks) return {};
  const std::size_t need = static_cast<std::size_t>(threads) * static_cast<std::size_t>(ranks);
  if (need > allowed.size()) return {};
  const auto first = allowed.begin() + static_cast<std::ptrdiff_t>(threads) * rank;
  return {first, first + threads};
}

std::vector<unsigned> placement_for(unsigned threads, const PlacementOptions& options) {
  if (!options.pin) return {};
  LocalRank local = local_rank_from_launcher();
  if (options.local_rank >= 0) local.rank = options.local_rank;
  if (options.local_ranks >= 0) local.ranks = options.local_ranks;
  return plan_placement(allowed_pus(), threads, local.rank, local.ranks);
}

bool pin_this_thread(unsigned pu) {
  hwloc_topology_t topo = topology();
  if (topo == nullptr) return false;
  hwloc_bitmap_t set = hwloc_bitmap_alloc();
  hwloc_bitmap_only(set, pu);
  const bool ok = hwloc_set_cpubind(topo, set, HWLOC_CPUBIND_THREAD) == 0;
  hwloc_bitmap_free(set);
  return ok;
}

std::optional<ThreadBinding> ThreadBinding::current() {
  hwloc_topology_t topo = topology();
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
  if (set_ != nullptr && topology() != nullptr)
    hwloc_set_cpubind(topology(), static_cast<hwloc_bitmap_t>(set_), HWLOC_CPUBIND_THREAD);
}

}  // namespace courier
