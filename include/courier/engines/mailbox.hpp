#pragma once
// The `mailbox` engine: paper 001's applications on the YGM-style mailbox (mailbox/). Every rank
// reads its own part of the graph (any split: the applications move every edge to where it lives
// themselves) and keeps per-vertex values round robin (mailbox::RoundRobin); the values and one
// report per rank are gathered to rank 0 through the mailbox itself. Ranks are threads of this
// process on the local transport, or the processes of an MPI launcher on the mpi transport.
// Ranks read their input as paper 001 does (--mailbox-input as-read: each its own byte range or
// generator share, in file order), or owner-placed (every edge first moved to its source's owner).
// With --threads T each rank's applications run on T compute threads sharing its mailbox
// (mailbox::Config::threads). Options: routing, layout, capacity, mailbox-input, delegates.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "courier/comm/runtime.hpp"
#include "courier/graph/edge_list.hpp"
#include "courier/harness/engine.hpp"
#include "courier/mailbox/config.hpp"
#include "courier/mailbox/stats.hpp"

namespace courier::engines {

// What a mailbox kernel gets on each rank.
struct MailboxShare {
  comm::Runtime& runtime;
  std::span<const graph::Edge> edges;  // this rank's part, the load's per-edge transforms applied
  std::span<const double> weights;     // MailboxKernel::weights: the parts' weights (empty: all 1)
  graph::vertex_t vertices;            // of the whole graph
  mailbox::Config config;
  // --delegates: nullopt for auto, UINT64_MAX for none, else the degree above which a vertex is one.
  std::optional<std::uint64_t> delegate_threshold;
};

// What one rank reports besides its values; fixed size, so it travels as it is.
struct MailboxReport {
  mailbox::Stats stats;        // the application's own mailbox
  mailbox::Stats setup_stats;  // degree count, announcements and edge moves
  double setup_seconds = 0;
  double run_seconds = 0;
  std::uint64_t delegates = 0;
  std::uint64_t delegate_threshold = 0;
  std::uint64_t count = 0;  // the kernel's own per-rank count (MailboxKernel::count_name)
};

struct MailboxResult {
  harness::Values values;  // round robin: value i of rank r is vertex i * P + r
  MailboxReport report;
};

struct MailboxKernel : harness::Kernel {
  std::function<MailboxResult(const MailboxShare&)> run;
  bool real_values = false;  // values are doubles (else uint64)
  bool weights = false;      // reads the edges' weights
  bool delegates = false;    // replicates high-degree vertices (and reports them)
  std::string count_name;    // JSON key of MailboxReport::count, empty when it has none
};

// Typed statistics of a mailbox-engine run (rank 0's view).
struct MailboxStats : harness::EngineStats {
  std::vector<MailboxReport> reports;  // one per rank, in rank order
  const MailboxKernel* kernel = nullptr;
  bool mpi = false;
  std::string routing, layout, topology;
  std::string input;     // --mailbox-input: as-read or owner-placed
  unsigned threads = 1;  // compute threads per rank
  std::size_t capacity = 0;
  bool verbose = false;
  double setup_seconds() const;  // the slowest rank's
  double run_seconds() const;    // the slowest rank's
  nlohmann::json to_json() const override;
  std::string describe(bool verbose) const override;
};

std::shared_ptr<const harness::Engine> mailbox_engine();

}  // namespace courier::engines
