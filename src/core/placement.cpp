#include "courier/core/placement.hpp"

#include <hwloc.h>

#include <cstdlib>
#include <utility>
#include <vector>

#include "courier/core/error.hpp"

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

namespace {

constexpr std::size_t kNone = ~std::size_t{0};

// Dealings tried one by one below this many (a few milliseconds); above, greedily.
constexpr double kExhaustiveUpTo = 2e5;

// Every dealing of items `item`.. (count[p] more to package p), the best kept: the first of the
// most weight within packages, in the order that tries the lower packages first.
void try_every(std::size_t item, double within, std::vector<std::size_t>& count,
               const std::vector<std::vector<double>>& weight, std::vector<std::size_t>& at, double& best,
               std::vector<std::size_t>& best_at) {
  const std::size_t n = weight.size();
  if (item == n) {
    if (within > best + 1e-9) best = within, best_at = at;
    return;
  }
  for (std::size_t p = 0; p < count.size(); ++p) {
    if (count[p] == 0) continue;
    double added = 0;
    for (std::size_t other = 0; other < item; ++other)
      if (at[other] == p) added += weight[item][other];
    --count[p];
    at[item] = p;
    try_every(item + 1, within + added, count, weight, at, best, best_at);
    ++count[p];
  }
  at[item] = kNone;
}

// How many dealings there are: n! / prod(count[p]!), as a double.
double dealings(const std::vector<std::size_t>& count) {
  double ways = 1;
  std::size_t placed = 0;
  for (std::size_t c : count)
    for (std::size_t k = 1; k <= c; ++k) ways = ways * static_cast<double>(++placed) / static_cast<double>(k);
  return ways;
}

// Items 0..n-1 dealt to packages, count[p] to package p, those with the largest weight between
// them together (see plan_partnered_placement); the package of each item. Every dealing is tried
// when there are few; else greedily, then swaps.
std::vector<std::size_t> deal(std::vector<std::size_t> count, const std::vector<std::vector<double>>& weight) {
  const std::size_t n = weight.size();
  std::vector<std::size_t> at(n, kNone);
  if (dealings(count) <= kExhaustiveUpTo) {
    double best = -1;
    std::vector<std::size_t> best_at;
    try_every(0, 0, count, weight, at, best, best_at);
    return best_at;
  }
  const auto with = [&](std::size_t item, std::size_t p, std::size_t except) {
    double sum = 0;
    for (std::size_t other = 0; other < n; ++other)
      if (other != item && other != except && at[other] == p) sum += weight[item][other];
    return sum;
  };
  for (std::size_t p = 0; p < count.size(); ++p)
    for (std::size_t k = 0; k < count[p]; ++k) {
      std::size_t pick = kNone;
      double most = -1;
      for (std::size_t item = 0; item < n; ++item) {
        if (at[item] != kNone) continue;
        const double w = k == 0 ? 0 : with(item, p, kNone);  // the first: the lowest left
        if (w > most) most = w, pick = item;
      }
      at[pick] = p;
    }
  // Swaps of two items across packages, the best first, while one gains (each gain is positive
  // and the total bounded, so this ends; the bound on rounds is a guard only).
  for (std::size_t round = 0; round < n * n; ++round) {
    double gain = 1e-9;
    std::size_t a_best = kNone, b_best = kNone;
    for (std::size_t a = 0; a < n; ++a)
      for (std::size_t b = a + 1; b < n; ++b) {
        if (at[a] == at[b]) continue;
        const double g = with(a, at[b], b) + with(b, at[a], a) - with(a, at[a], a) - with(b, at[b], b);
        if (g > gain) gain = g, a_best = a, b_best = b;
      }
    if (a_best == kNone) break;
    std::swap(at[a_best], at[b_best]);
  }
  return at;
}

// How many of `items` blocks give each of `packages` packages (item i to package i * packages / items).
std::vector<std::size_t> blocks(std::size_t items, std::size_t packages) {
  std::vector<std::size_t> count(packages, 0);
  for (std::size_t i = 0; i < items; ++i) ++count[i * packages / items];
  return count;
}

}  // namespace

std::vector<std::vector<unsigned>> plan_partnered_placement(const Machine& machine, unsigned threads, int ranks,
                                                            const std::vector<double>& exchange) {
  if (threads == 0 || ranks < 1) return {};
  const std::size_t p = static_cast<std::size_t>(ranks), units = p * threads, packages = machine.packages.size();
  if (exchange.size() != units * units) throw Error("plan_partnered_placement: exchange is not units x units");
  if (units > machine.pus() || packages == 0) return {};
  // Whole ranks to packages where each package's share fits it; else threads one by one.
  std::vector<std::size_t> count = blocks(p, packages);
  bool whole = true;
  for (std::size_t k = 0; k < packages; ++k) whole = whole && count[k] * threads <= machine.cores_first(k).size();
  const std::size_t size = whole ? threads : 1, items = whole ? p : units;
  if (!whole) {
    count = blocks(units, packages);
    for (std::size_t k = 0; k < packages; ++k)
      if (count[k] > machine.cores_first(k).size()) {  // uneven packages: the flat slices
        std::vector<std::vector<unsigned>> flat;
        for (int r = 0; r < ranks; ++r) flat.push_back(plan_placement(machine.cores_first(), threads, r, ranks));
        return flat;
      }
  }
  std::vector<std::vector<double>> weight(items, std::vector<double>(items, 0.0));
  for (std::size_t a = 0; a < units; ++a)
    for (std::size_t b = 0; b < units; ++b)
      if (a / size != b / size) weight[a / size][b / size] += exchange[a * units + b] + exchange[b * units + a];
  const std::vector<std::size_t> at = deal(count, weight);
  std::vector<std::vector<unsigned>> pus(p);
  std::vector<std::size_t> used(packages, 0);
  for (std::size_t item = 0; item < items; ++item) {
    const std::vector<unsigned> slots = machine.cores_first(at[item]);
    for (std::size_t u = item * size; u < (item + 1) * size; ++u) pus[u / threads].push_back(slots[used[at[item]]++]);
  }
  return pus;
}

double exchange_within_packages(const Machine& machine, unsigned threads, const std::vector<std::vector<unsigned>>& pus,
                                const std::vector<double>& exchange) {
  std::vector<int> package;
  for (const std::vector<unsigned>& rank : pus)
    for (std::size_t t = 0; t < threads; ++t) package.push_back(t < rank.size() ? machine.package_of(rank[t]) : -1);
  const std::size_t units = package.size();
  double sum = 0;
  for (std::size_t a = 0; a < units; ++a)
    for (std::size_t b = 0; b < units; ++b)
      if (a != b && package[a] >= 0 && package[a] == package[b]) sum += exchange.at(a * units + b);
  return sum;
}

std::vector<unsigned> placement_for(unsigned threads, const PlacementOptions& options,
                                    const std::vector<double>& exchange) {
  if (!options.pin) return {};
  LocalRank local = local_rank_from_launcher();
  if (options.local_rank >= 0) local.rank = options.local_rank;
  if (options.local_ranks >= 0) local.ranks = options.local_ranks;
  const std::size_t units = static_cast<std::size_t>(local.ranks) * threads;
  if (exchange.empty() || exchange.size() != units * units)
    return plan_numa_placement(Machine::of_this_process(), threads, local.rank, local.ranks);
  std::vector<std::vector<unsigned>> all =
      plan_partnered_placement(Machine::of_this_process(), threads, local.ranks, exchange);
  return all.empty() ? std::vector<unsigned>{} : std::move(all[static_cast<std::size_t>(local.rank)]);
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
