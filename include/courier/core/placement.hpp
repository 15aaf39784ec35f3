#pragma once
// Placement: which processing units (PUs, hwloc's hardware threads) the threads of one rank's
// team run on. A rank's threads are spread over the PUs the process is allowed to use (its CPU
// binding), cores first; ranks that share a machine (several ranks under one mpirun, or ranks as
// threads of one process) take disjoint slices by local rank. NUMA-aware: the ranks are dealt to
// the packages (sockets) in blocks, so that a rank's threads share a socket and, with as many
// ranks as sockets, each rank has one; told who exchanges with whom (plan_partnered_placement),
// which ranks share a package follows it. When the slices do not fit, nothing is pinned: the OS
// schedules better than a forced overlap.
#include <optional>
#include <vector>

#include "courier/core/machine.hpp"

namespace courier {

struct PlacementOptions {
  bool pin = true;       // false: never pin
  int local_rank = -1;   // this rank among the ranks sharing the machine; -1: from the launcher
  int local_ranks = -1;  // how many share it; -1: from the launcher (1 without one)
};

// This rank's place among the ranks of its machine as the launcher tells it (Open MPI's
// OMPI_COMM_WORLD_LOCAL_RANK / _LOCAL_SIZE, MPICH's MPI_LOCALRANKID / MPI_LOCALNRANKS, Slurm's
// SLURM_LOCALID / SLURM_TASKS_PER_NODE's first count); 0 of 1 without one.
struct LocalRank {
  int rank = 0;
  int ranks = 1;
};
LocalRank local_rank_from_launcher();

// The OS indices of the PUs this process may run on, cores first (the first PU of every core,
// then the second, ...); empty if hwloc cannot tell.
std::vector<unsigned> allowed_pus();

// The PUs for `threads` threads of local rank `rank` of `ranks`, given the `allowed` PUs: slice
// `rank` of `threads` PUs each if all slices fit, else nothing (do not pin).
std::vector<unsigned> plan_placement(const std::vector<unsigned>& allowed, unsigned threads, int rank, int ranks);

// The PUs for `threads` threads of local rank `rank` of `ranks` on `machine`: rank r goes to
// package r * packages / ranks and takes its slice of that package's PUs, cores first, when every
// package's ranks fit it; else the flat slices of plan_placement over the whole machine.
std::vector<unsigned> plan_numa_placement(const Machine& machine, unsigned threads, int rank, int ranks);

// Paper 003's NUMA-aware assignment of threads to cores (Fig. 5): the PUs of every thread of
// `ranks` ranks of `threads` threads sharing `machine`, by rank, where exchange[a * units + b]
// (units = ranks * threads; unit rank * threads + thread) is how much unit a sends unit b an
// iteration. Each package takes as many ranks as plan_numa_placement deals it, a rank within one
// package, when they fit; else (a rank wider than a package) as many threads as blocks of threads
// give it. Which ones share a package is chosen so that those exchanging most do: of every
// dealing when there are few (up to 2e5: 16 ranks over two packages), the first of the most
// exchange within packages; else package by package the lowest left, then whichever exchanges
// most with those in it, then swaps across packages while one gains. Without exchanges, the
// blocks of plan_numa_placement. Empty when the threads do not fit the machine (do not pin).
std::vector<std::vector<unsigned>> plan_partnered_placement(const Machine& machine, unsigned threads, int ranks,
                                                            const std::vector<double>& exchange);
// The sum of exchange[a][b] over the pairs of units (as above) on one package under `pus`.
double exchange_within_packages(const Machine& machine, unsigned threads, const std::vector<std::vector<unsigned>>& pus,
                                const std::vector<double>& exchange);

// Where `threads` threads of this rank should run under `options`; empty: do not pin. With
// `exchange` (as plan_partnered_placement's) for every rank of the machine, partnered.
std::vector<unsigned> placement_for(unsigned threads, const PlacementOptions& options,
                                    const std::vector<double>& exchange = {});

// Binds the calling thread to PU `pu`; false if the system refused (the thread stays as it was).
bool pin_this_thread(unsigned pu);
// The calling thread's current binding, to restore later; nullopt if it cannot be read.
class ThreadBinding {
 public:
  static std::optional<ThreadBinding> current();
  ~ThreadBinding();
  ThreadBinding(ThreadBinding&& other) noexcept;
  ThreadBinding& operator=(ThreadBinding&& other) noexcept;
  // Binds the calling thread as this binding says.
  void restore() const;

 private:
  ThreadBinding() = default;
  void* set_ = nullptr;  // an hwloc_bitmap_t
};

}  // namespace courier
