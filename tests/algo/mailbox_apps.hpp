#pragma once
// What the mailbox application tests share: running one application on N ranks of the local
// transport, each rank with a contiguous slice of the edges (as a loader would give it), and
// assembling the round-robin results into one array per vertex.
#include <cstddef>
#include <functional>
#include <optional>
#include <stdexcept>
#include <span>
#include <string>
#include <vector>

#include "courier/mailbox/round_robin.hpp"
#include "courier/comm/local_world.hpp"
#include "courier/graph/edge_list.hpp"
#include "courier/mailbox/config.hpp"
#include "courier/mailbox/routing.hpp"
#include "courier/mailbox/topology.hpp"

namespace courier::test_support {

struct MailboxSetup {
  int ranks = 1;
  mailbox::Routing routing = mailbox::Routing::no_route;
  std::optional<mailbox::Layout> layout;
  std::size_t capacity = 4096;
  net::LocalOptions local;
  comm::RuntimeOptions runtime;

  mailbox::Config config() const {
    mailbox::Config c;
    c.capacity_bytes = capacity;
    c.routing = routing;
    c.layout = layout;
    return c;
  }
  std::string describe() const {
    return std::to_string(ranks) + " ranks" + (layout ? " as " + to_string(*layout) : "") + ", " +
           mailbox::to_string(routing) + ", capacity " + std::to_string(capacity);
  }
};

inline MailboxSetup on(int ranks, mailbox::Routing routing = mailbox::Routing::no_route,
                       std::optional<mailbox::Layout> layout = std::nullopt, std::size_t capacity = 4096) {
  MailboxSetup setup;
  setup.ranks = ranks;
  setup.routing = routing;
  setup.layout = layout;
  setup.capacity = capacity;
  return setup;
}

// Rank r's slice of the edges: [m * r / P, m * (r + 1) / P).
inline std::span<const graph::Edge> slice_of(const graph::EdgeList& edges, int rank, int ranks) {
  const std::size_t m = edges.edges.size(), r = static_cast<std::size_t>(rank), p = static_cast<std::size_t>(ranks);
  return std::span<const graph::Edge>(edges.edges).subspan(m * r / p, m * (r + 1) / p - m * r / p);
}

// Runs `body(runtime, my_edges)` on every rank; it returns that rank's round-robin values, which
// land in one array by global vertex id.
template <class T>
std::vector<T> run_round_robin(const graph::EdgeList& edges, const MailboxSetup& setup, T unset,
                               const std::function<std::vector<T>(comm::Runtime&, std::span<const graph::Edge>)>& body) {
  std::vector<T> all(static_cast<std::size_t>(edges.num_vertices), unset);
  comm::run_local(
      setup.ranks,
      [&](comm::Runtime& runtime) {
        const std::vector<T> mine = body(runtime, slice_of(edges, runtime.rank(), runtime.ranks()));
        const mailbox::RoundRobin own(runtime.ranks(), runtime.rank(), edges.num_vertices);
        if (mine.size() != own.owned()) throw std::runtime_error("a rank returned the wrong number of values");
        for (std::size_t i = 0; i < mine.size(); ++i) all[own.global(i)] = mine[i];  // disjoint per rank
      },
      setup.runtime, setup.local);
  return all;
}

}  // namespace courier::test_support
