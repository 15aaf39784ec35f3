#pragma once
// Algorithm: the descriptor of one algorithm, kept beside its kernels in algo/ (as GAP keeps a
// kernel, its verifier and its summary in one file). It says what the algorithm needs from the
// graph, which options it takes, how each engine runs it (a Kernel of that engine's kind), its
// sequential reference, its independent verifier and its summary. The harness and the engines
// dispatch through descriptors only: no code outside them compares algorithm names.
#include <any>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "courier/graph/csr.hpp"
#include "courier/harness/option.hpp"
#include "courier/harness/values.hpp"

namespace courier::harness {

// What an algorithm needs from the graph it runs on.
struct Needs {
  bool source = false;             // a start vertex: --source, else the largest out-degree
  bool in_edges = false;           // pull operators read in-edges (the vertex engine keeps them)
  // With in_edges: whether this run's options can pull at all (unset: always). sssp pushing every
  // round never reads in-edges, and its partitions then need not hold them.
  std::function<bool(const Options&)> in_edges_if = nullptr;
  bool simple_undirected = false;  // defined on the undirected simple graph (tc, kcore)
};

// What a kernel is asked: the run's options, defaults filled in, and the source, resolved on the
// graph (graph::kNoVertex when the algorithm needs none).
struct Request {
  Options options;
  graph::vertex_t source = graph::kNoVertex;
};

// What a kernel hands back: one value per vertex (on a distributed engine: per vertex this rank
// keeps, until the engine gathers them) and facts the algorithm's own summary and verifier read
// (its own type, e.g. a pagerank's iterations; empty when there are none).
struct Output {
  Values values;
  std::any facts;
};

// What people read (Key: value lines) and what --json holds, about the result itself.
struct Summary {
  std::vector<std::pair<std::string, std::string>> lines;
  nlohmann::json json = nlohmann::json::object();
};

struct Verdict {
  std::string verifier;  // how it was checked
  std::string mismatch;  // empty: passed
};

// How one engine runs one algorithm. Each engine defines its own kind (engines/*.hpp) and finds
// its kernel in a descriptor by its name.
struct Kernel {
  virtual ~Kernel() = default;
};

struct Algorithm {
  std::string name;                  // as `courier run NAME` spells it
  std::vector<std::string> aliases;  // other accepted spellings
  std::string about;                 // one line for `courier list` and --help
  Needs needs;
  std::vector<OptionSpec> options;   // the algorithm's own options (source, damping, ...)
  // The sequential reference on the whole graph: the seq engine runs it, --verify may compare with it.
  std::function<Output(const graph::Csr&, const Request&)> reference;
  // Checks `output` on the whole graph; `is_reference`: the output is the reference's own.
  std::function<Verdict(const graph::Csr&, const Request&, const Output&, bool is_reference)> verify;
  // `edges`: of the graph as loaded.
  std::function<Summary(const Output&, const Request&, std::uint64_t edges)> summarise;
  // Engine name -> that engine's kernel for this algorithm.
  std::map<std::string, std::shared_ptr<const Kernel>, std::less<>> kernels;

  // This algorithm's kernel of kind K for `engine`, or nullptr.
  template <class K>
  const K* kernel(std::string_view engine) const {
    const auto found = kernels.find(engine);
    return found == kernels.end() ? nullptr : dynamic_cast<const K*>(found->second.get());
  }
};

}  // namespace courier::harness
