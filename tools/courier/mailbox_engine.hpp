#pragma once
// The `mailbox` engine: paper 001's applications (degree counting, connected components with
// delegates, SpMV with delegates) on the mailbox, their result gathered to rank 0 and summarised
// as the other engines' are. Without a launcher the ranks are threads of this process on the
// local transport; under mpirun each process is a rank on the mpi transport.
#include <cstddef>
#include <string>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "courier/graph/load.hpp"
#include "courier/mailbox/config.hpp"
#include "launcher.hpp"
#include "run_result.hpp"

namespace courier::cli {

struct MailboxEngineOptions {
  int ranks = 1;                      // without a launcher
  std::string routing = "noroute";    // noroute | nl | nr | nlnr (mailbox::parse_routing)
  std::string layout;                 // NODESxCORES; empty: the nodes the transport reports
  std::size_t capacity = mailbox::Config{}.capacity_bytes;  // bytes buffered before an exchange
  std::string delegates = "auto";     // cc, spmv: auto | none | a degree (above it: delegated)
  bool verbose = false;               // echo the configuration at start, each rank's statistics at the end
};

struct MailboxRun {
  RunResult result;
  graph::vertex_t vertices = 0;  // of the whole graph, agreed by the ranks
  std::uint64_t edges = 0;       // of the whole graph with the transforms, summed over the ranks
  double load_seconds = 0;       // reading the parts (the slowest rank)
  nlohmann::json stats;  // configuration, delegates, summed and per-rank mailbox statistics
  double setup_seconds = 0;  // delegates found and edges moved (the slowest rank)
  double run_seconds = 0;    // the application proper (the slowest rank)
  double total_seconds = 0;  // everything, gathers included
  std::string description;  // one line for the summary's "Algorithm:" line
};

// --routing, --layout, --capacity, --delegates and --verbose.
void add_mailbox_options(CLI::App& command, MailboxEngineOptions& options);

// The algorithms the engine runs.
bool mailbox_engine_runs(const std::string& algorithm);
// Throws InputError naming the option and its accepted forms: an algorithm the engine does not
// run, a routing, layout or delegate threshold it cannot read, or a layout that does not fit
// `ranks` (0: not known yet, as under a launcher before MPI starts; the fit is not checked).
// Every rank reaches the same verdict.
void check_mailbox_options(const std::string& algorithm, const MailboxEngineOptions& options, int ranks);

// --dedupe needs the copies of an edge together, which the engine's parts are not: InputError.
void check_mailbox_load(const graph::LoadOptions& load);

// Without a launcher (mpi == nullptr): options.ranks threads. Under a launcher: this process is
// rank mpi->rank(). Every rank reads only its own part of GRAPH (dist::read_part); a bad input
// throws dist::LoadError on every rank. The result is complete on rank 0 only; `degree` counts
// out-degree, as on every engine.
MailboxRun run_mailbox(const std::string& algorithm, const std::string& graph, const graph::LoadOptions& load,
                       const MailboxEngineOptions& options, const MpiSession* mpi);

// The engine's lines of the summary (rank 0): messages, bytes, batches, delegates.
void print_mailbox_summary(const nlohmann::json& stats);

}  // namespace courier::cli
