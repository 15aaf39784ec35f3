#include "courier/sync/progress_mode.hpp"

#include <algorithm>
#include <string>
#include <thread>
#include <utility>

#include "courier/core/error.hpp"
#include "courier/core/placement.hpp"

namespace courier::sync {

ProgressMode parse_progress_mode(std::string_view text) {
  if (text == "auto") return ProgressMode::automatic;
  if (text == "thread") return ProgressMode::thread;
  if (text == "explicit") return ProgressMode::explicit_calls;
  throw InputError("no progress mode '" + std::string(text) +
                   "' (choose auto: a progress thread only when the node has a hardware thread to spare; "
                   "thread: always; explicit: the waiting threads progress)");
}

std::string_view to_string(ProgressMode mode) {
  switch (mode) {
    case ProgressMode::automatic: return "auto";
    case ProgressMode::thread: return "thread";
    case ProgressMode::explicit_calls: return "explicit";
  }
  return "?";
}

namespace {

// The compute threads that share this rank's hardware threads, and how many those are.
std::pair<unsigned long long, unsigned long long> demand_and_supply(const ProgressBudget& budget) {
  unsigned hardware = budget.hardware_threads, allowed = budget.allowed_threads;
  if (hardware == 0) {
    hardware = std::max(1u, std::thread::hardware_concurrency());
    allowed = static_cast<unsigned>(allowed_pus().size());  // 0 when hwloc cannot tell
  }
  const bool bound = allowed != 0 && allowed < hardware;
  const int ranks = bound ? budget.ranks_in_process : budget.ranks_on_node;
  const auto threads = static_cast<unsigned long long>(std::max(budget.threads_per_rank, 1u));
  return {static_cast<unsigned long long>(std::max(ranks, 1)) * threads, bound ? allowed : hardware};
}

}  // namespace

bool wants_progress_thread(ProgressMode mode, const ProgressBudget& budget) {
  if (mode == ProgressMode::thread) return true;
  if (mode == ProgressMode::explicit_calls) return false;
  const auto [busy, hardware] = demand_and_supply(budget);
  return busy < hardware;
}

bool oversubscribed(const ProgressBudget& budget) {
  const auto [busy, hardware] = demand_and_supply(budget);
  return busy > hardware;
}

int ranks_on_node(const std::vector<int>& rank_nodes, int rank) {
  if (rank < 0 || static_cast<std::size_t>(rank) >= rank_nodes.size()) return 1;
  const int node = rank_nodes[static_cast<std::size_t>(rank)];
  return static_cast<int>(std::count(rank_nodes.begin(), rank_nodes.end(), node));
}

ProgressBudget process_budget(const net::Device& device, unsigned threads_per_rank) {
  return {.ranks_on_node = ranks_on_node(device.rank_nodes(), device.rank()), .threads_per_rank = threads_per_rank};
}

}  // namespace courier::sync
