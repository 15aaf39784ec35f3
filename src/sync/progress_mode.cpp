#include "courier/sync/progress_mode.hpp"

#include <algorithm>
#include <string>
#include <thread>
#include <utility>

#include "courier/core/error.hpp"

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

// Compute threads on the node and its hardware threads.
std::pair<unsigned long long, unsigned long long> demand_and_supply(const ProgressBudget& budget) {
  const unsigned hardware = budget.hardware_threads != 0 ? budget.hardware_threads
                                                         : std::max(1u, std::thread::hardware_concurrency());
  const unsigned long long busy = static_cast<unsigned long long>(std::max(budget.ranks_on_node, 1)) *
                                  std::max(budget.threads_per_rank, 1u);
  return {busy, hardware};
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

}  // namespace courier::sync
