#include "courier/algo/direction.hpp"

#include <fmt/format.h>

#include "courier/core/error.hpp"

namespace courier::algo {

using namespace courier::vertex;

Direction parse_direction(const std::string& text) {
  if (text == "push") return Direction::push;
  if (text == "pull") return Direction::pull;
  if (text == "auto") return Direction::automatic;
  throw InputError(fmt::format("--direction {}: expected auto, push or pull", text));
}

std::uint64_t out_edges_of(const dist::LocalGraph& g, const Frontier& frontier) {
  std::uint64_t edges = 0;
  if (frontier.sparse())
    for (local_t v : frontier.list()) edges += g.out().degree(v);
  else
    frontier.bits().for_each(0, frontier.size(),
                             [&](std::size_t v) { edges += g.out().degree(static_cast<local_t>(v)); });
  return edges;
}

bool pulls_this_round(Engine& engine, const Frontier& frontier, Direction direction, std::uint64_t edges) {
  if (direction != Direction::automatic) return direction == Direction::pull;
  if (!engine.graph().has_in_edges()) return false;
  const double active = static_cast<double>(engine.active());
  const double active_edges = static_cast<double>(engine.sum_all(out_edges_of(engine.graph(), frontier)));
  return active + active_edges > kDenseFraction * static_cast<double>(edges);
}

}  // namespace courier::algo
