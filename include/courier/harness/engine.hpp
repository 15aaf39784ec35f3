#pragma once
// Engine: one way of running algorithms (seq, vertex, mailbox; la and dsl to come), behind one
// interface. An engine runs the algorithms whose descriptors carry its kind of kernel, declares
// its own options, and reports typed statistics of its own (EngineStats).
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "courier/harness/algorithm.hpp"
#include "courier/harness/launch.hpp"
#include "courier/harness/spec.hpp"

namespace courier::harness {

// An engine's statistics of one run. C++ callers read the engine's own type (dynamic_cast, e.g.
// to engines::VertexStats); people and --json read what these give.
class EngineStats {
 public:
  virtual ~EngineStats() = default;
  virtual nlohmann::json to_json() const = 0;
  // The summary's lines after its Time line, each ending in '\n'; `verbose`: every round or rank.
  virtual std::string describe(bool verbose) const = 0;
};

// A timed phase of a run besides the algorithm itself ("load", "partition", ...).
struct Phase {
  std::string name;   // the --json key
  std::string label;  // how the summary's Time line says it
  double seconds = 0;
};

// A distributed run's two clocks, each its slowest rank's: the algorithm (EngineRun::run_seconds)
// and the gather of its values to rank 0 (the "gather" phase). No engine counts the gather as the
// algorithm's time, as GAP's and Gluon's timings leave the output out.
struct RunTimes {
  double run = 0;
  double gather = 0;
  // From this rank's time of the two together and of the gather alone (collective over `ranks`,
  // anything with max_all).
  template <class Ranks>
  static RunTimes slowest(Ranks& ranks, double both, double gather) {
    return {ranks.max_all(both - gather), ranks.max_all(gather)};
  }
};

// What an engine hands back: complete on the speaking rank (rank 0) only.
struct EngineRun {
  Output output;            // one value per vertex of the whole graph
  Request request;          // as the kernels saw it (the source resolved)
  graph::vertex_t vertices = 0;
  std::uint64_t edges = 0;  // of the graph as loaded, with the load's transforms
  double run_seconds = 0;   // the algorithm (the slowest rank), without gathering its values (RunTimes)
  std::vector<Phase> phases;
  std::shared_ptr<const EngineStats> stats;  // null: nothing beyond the times
  std::string description;  // "vertex engine, 4 ranks x 2 threads, ..." for the summary
  // The whole graph, when the engine read it anyway (seq): --verify checks against it.
  std::shared_ptr<const graph::Csr> whole_graph;
  bool is_reference = false;  // the output is the algorithm's sequential reference's own
};

class Engine {
 public:
  virtual ~Engine() = default;
  virtual std::string_view name() const = 0;   // as --engine spells it
  virtual std::string_view about() const = 0;  // one line for `courier list` and --help
  virtual std::vector<OptionSpec> options() const { return {}; }
  virtual bool runs(const Algorithm& algorithm) const = 0;
  // Whether its ranks may be the processes of an MPI launcher (then harness::run starts MPI).
  virtual bool distributed() const = 0;
  // Before any rank starts, alike on every rank: InputError for what it cannot run as asked.
  virtual void check(const Algorithm& algorithm, const RunSpec& spec, const Launch& launch) const;
  // Collective under MPI. `spec` is resolved (every declared option has a value).
  virtual EngineRun run(const Algorithm& algorithm, const RunSpec& spec, const Launch& launch) const = 0;
};

// An engine that runs the algorithms whose descriptors carry a kernel of type K under its name.
template <class K>
class EngineFor : public Engine {
 public:
  bool runs(const Algorithm& algorithm) const final { return algorithm.kernel<K>(name()) != nullptr; }
};

}  // namespace courier::harness
