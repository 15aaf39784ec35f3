#include "courier/dist/partition_plan.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "courier/core/error.hpp"

namespace courier::dist {

namespace {

rank_t near_square_rows(rank_t ranks) {
  rank_t rows = 1;
  for (rank_t r = 1; r * r <= ranks; ++r)
    if (ranks % r == 0) rows = r;
  return rows;
}

}  // namespace

const char* to_string(Policy policy) {
  switch (policy) {
    case Policy::oec: return "oec";
    case Policy::iec: return "iec";
    case Policy::cvc: return "cvc";
    case Policy::hash: return "hash";
  }
  return "?";
}

Policy parse_policy(std::string_view name) {
  for (Policy p : {Policy::oec, Policy::iec, Policy::cvc, Policy::hash})
    if (name == to_string(p)) return p;
  throw InputError(fmt::format("unknown partition policy '{}': choose oec, iec, cvc or hash", name));
}

PartitionPlan::PartitionPlan(Policy policy, std::vector<vertex_t> bounds)
    : policy_(policy), bounds_(std::move(bounds)) {
  if (bounds_.size() < 2) throw Error("PartitionPlan: at least one rank is needed");
  if (bounds_[0] != 0 || !std::is_sorted(bounds_.begin(), bounds_.end()))
    throw Error("PartitionPlan: master ranges must start at 0 and never decrease");
  grid_rows_ = near_square_rows(ranks());
}

PartitionPlan::PartitionPlan(Policy policy, rank_t ranks, vertex_t vertices)
    : PartitionPlan(policy, [&] {
        std::vector<vertex_t> bounds(static_cast<std::size_t>(std::max(ranks, 1)) + 1);
        for (std::size_t r = 0; r < bounds.size(); ++r) bounds[r] = vertices * r / (bounds.size() - 1);
        return bounds;
      }()) {}

namespace {

double alpha_of(std::size_t parts) { return 8.0 * static_cast<double>(parts - 1); }

}  // namespace

PartitionPlan::PartitionPlan(Policy policy, rank_t ranks, std::span<const edge_t> degree)
    : PartitionPlan(policy, [&] {
        const std::size_t parts = static_cast<std::size_t>(std::max(ranks, 1));
        const vertex_t n = degree.size();
        const double alpha = alpha_of(parts);
        double total = 0;
        for (edge_t d : degree) total += static_cast<double>(d) + alpha;
        // Cut where the running weight passes each rank's share.
        std::vector<vertex_t> bounds(parts + 1, n);
        bounds[0] = 0;
        double running = 0;
        std::size_t next = 1;
        for (vertex_t v = 0; v < n && next < parts; ++v) {
          running += static_cast<double>(degree[v]) + alpha;
          while (next < parts && running >= total * static_cast<double>(next) / static_cast<double>(parts))
            bounds[next++] = v + 1;
        }
        return bounds;
      }()) {}

template <class C>
double PartitionPlan::block_weight(rank_t ranks, std::span<const C> degree) {
  const double alpha = alpha_of(static_cast<std::size_t>(std::max(ranks, 1)));
  double weight = 0;  // integers, exact in a double, in any order of summing
  for (C d : degree) weight += static_cast<double>(d) + alpha;
  return weight;
}

template <class C>
std::vector<std::pair<rank_t, vertex_t>> PartitionPlan::cuts_in_block(rank_t ranks, vertex_t first,
                                                                      std::span<const C> degree, double before,
                                                                      double total) {
  const std::size_t parts = static_cast<std::size_t>(std::max(ranks, 1));
  const double alpha = alpha_of(parts);
  const auto share = [&](std::size_t r) { return total * static_cast<double>(r) / static_cast<double>(parts); };
  // The first cut the blocks before this one did not meet.
  std::size_t next = 1;
  while (next < parts && share(next) <= before) ++next;
  std::vector<std::pair<rank_t, vertex_t>> cuts;
  double running = before;
  for (std::size_t i = 0; i < degree.size() && next < parts; ++i) {
    running += static_cast<double>(degree[i]) + alpha;
    while (next < parts && running >= share(next)) cuts.emplace_back(static_cast<rank_t>(next++), first + i + 1);
  }
  return cuts;
}

template double PartitionPlan::block_weight(rank_t, std::span<const std::uint32_t>);
template double PartitionPlan::block_weight(rank_t, std::span<const std::uint64_t>);
template std::vector<std::pair<rank_t, vertex_t>> PartitionPlan::cuts_in_block(rank_t, vertex_t,
                                                                               std::span<const std::uint32_t>,
                                                                               double, double);
template std::vector<std::pair<rank_t, vertex_t>> PartitionPlan::cuts_in_block(rank_t, vertex_t,
                                                                               std::span<const std::uint64_t>,
                                                                               double, double);

PartitionPlan PartitionPlan::by_row_offsets(Policy policy, rank_t ranks, std::span<const edge_t> offsets) {
  if (offsets.empty()) throw Error("PartitionPlan: row offsets need at least one entry");
  const std::size_t parts = static_cast<std::size_t>(std::max(ranks, 1));
  const vertex_t n = offsets.size() - 1;
  const double alpha = alpha_of(parts);
  // The weight of vertices [0, w): integers, so exact in a double as the running sum above is.
  const auto before = [&](vertex_t w) {
    return static_cast<double>(offsets[w] - offsets[0]) + alpha * static_cast<double>(w);
  };
  const double total = before(n);
  std::vector<vertex_t> bounds(parts + 1, n);
  bounds[0] = 0;
  for (std::size_t r = 1; r < parts && n > 0; ++r) {
    // The first w >= 1 whose vertices [0, w) reach rank r's share, as the running sum meets it
    // (before(n), the total, always does).
    const double share = total * static_cast<double>(r) / static_cast<double>(parts);
    vertex_t lo = 1, hi = n;
    while (lo < hi) {
      const vertex_t mid = lo + (hi - lo) / 2;
      if (before(mid) >= share)
        hi = mid;
      else
        lo = mid + 1;
    }
    bounds[r] = lo;
  }
  return PartitionPlan(policy, std::move(bounds));
}

}  // namespace courier::dist
