// A toy algorithm and a toy engine, registered through the public API alone (harness/), run by
// the command line's own code (cli::main over a registry): what adding an engine or an algorithm
// takes, and that nothing in the CLI or the harness knows any algorithm or engine by name.
#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli.hpp"
#include "courier/algo/builtin.hpp"
#include "courier/core/timer.hpp"
#include "courier/graph/load.hpp"
#include "courier/harness/registry.hpp"

using namespace courier;
namespace fs = std::filesystem;

namespace {

// The toy engine's kind of kernel: a function of the whole graph.
struct ToyKernel : harness::Kernel {
  std::function<harness::Values(const graph::Csr&, const harness::Request&)> run;
};

struct ToyStats : harness::EngineStats {
  std::string note;
  nlohmann::json to_json() const override { return {{"note", note}}; }
  std::string describe(bool verbose) const override {
    return "Toy:        " + note + (verbose ? " (verbose)" : "") + "\n";
  }
};

class ToyEngine final : public harness::Engine {
 public:
  std::string_view name() const override { return "toy"; }
  std::string_view about() const override { return "a toy engine for the harness's tests"; }
  std::vector<harness::OptionSpec> options() const override {
    return {{.name = "note", .help = "a word the engine repeats", .fallback = "hello"}};
  }
  bool runs(const harness::Algorithm& algorithm) const override {
    return algorithm.kernel<ToyKernel>(name()) != nullptr;
  }
  bool distributed() const override { return false; }
  harness::EngineRun run(const harness::Algorithm& algorithm, const harness::RunSpec& spec,
                         const harness::Launch&) const override {
    const graph::Csr csr = graph::load_graph(spec.graph, spec.load);
    harness::EngineRun run;
    run.request.options = spec.options;
    Timer timer;
    run.output.values = algorithm.kernel<ToyKernel>(name())->run(csr, run.request);
    run.run_seconds = timer.lap();
    run.vertices = csr.num_vertices();
    run.edges = csr.num_edges();
    auto stats = std::make_shared<ToyStats>();
    stats->note = spec.options.text("note");
    run.stats = std::move(stats);
    run.description = "toy engine";
    return run;
  }
};

// The toy algorithm: each vertex's sum of out-neighbour ids, plus --bias. The reference sums the
// rows; the toy engine's kernel adds each edge to its source from the edge list's order.
std::vector<std::uint64_t> neighbour_sums(const graph::Csr& g, std::uint64_t bias) {
  std::vector<std::uint64_t> sums(g.num_vertices(), bias);
  for (graph::vertex_t v = 0; v < g.num_vertices(); ++v)
    for (graph::vertex_t u : g.neighbors(v)) sums[v] += u;
  return sums;
}

harness::Algorithm neighbour_sum() {
  harness::Algorithm a;
  a.name = "neighbour-sum";
  a.aliases = {"nsum"};
  a.about = "each vertex's sum of out-neighbour ids, plus --bias";
  a.options = {{.name = "bias", .help = "added to every sum", .fallback = "0"}};
  a.reference = [](const graph::Csr& g, const harness::Request& r) {
    return harness::Output{neighbour_sums(g, r.options.count("bias")), {}};
  };
  a.verify = [](const graph::Csr& g, const harness::Request& r, const harness::Output& out, bool) {
    const bool same = std::get<std::vector<std::uint64_t>>(out.values) == neighbour_sums(g, r.options.count("bias"));
    return harness::Verdict{"the toy reference", same ? "" : "sums differ\n"};
  };
  a.summarise = [](const harness::Output& out, const harness::Request&, std::uint64_t) {
    std::uint64_t total = 0;
    for (std::uint64_t s : std::get<std::vector<std::uint64_t>>(out.values)) total += s;
    return harness::Summary{{{"Total", std::to_string(total)}}, {{"total", total}}};
  };
  auto toy = std::make_shared<ToyKernel>();
  toy->run = [](const graph::Csr& g, const harness::Request& r) -> harness::Values {
    std::vector<std::uint64_t> sums(g.num_vertices(), r.options.count("bias"));
    const graph::EdgeList edges = graph::to_edge_list(g);
    for (const graph::Edge& e : edges.edges) sums[e.src] += e.dst;
    return sums;
  };
  a.kernels["toy"] = std::move(toy);
  return a;
}

harness::Registry toy_registry() {
  harness::Registry registry = builtin_registry();  // a copy: the built-ins, then the toys
  registry.add(std::make_shared<ToyEngine>());
  registry.add(neighbour_sum());
  return registry;
}

struct Outcome {
  int status = 0;
  std::string out, err;
};

Outcome courier_cli(const harness::Registry& registry, std::vector<std::string> arguments) {
  arguments.insert(arguments.begin(), "courier");
  std::vector<const char*> argv;
  for (const std::string& a : arguments) argv.push_back(a.c_str());
  testing::internal::CaptureStdout();
  testing::internal::CaptureStderr();
  Outcome outcome;
  outcome.status = cli::main(static_cast<int>(argv.size()), argv.data(), registry);
  outcome.out = testing::internal::GetCapturedStdout();
  outcome.err = testing::internal::GetCapturedStderr();
  return outcome;
}

std::string read_text(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

fs::path scratch() {
  const fs::path dir = fs::path(COURIER_TEST_TMPDIR) / "toy_registry";
  fs::create_directories(dir);
  return dir;
}

}  // namespace

TEST(ToyRegistry, TheToyAlgorithmRunsOnTheToyEngineAndOnSeqAndVerifies) {
  const harness::Registry registry = toy_registry();
  const fs::path dir = scratch();
  const Outcome toy = courier_cli(registry, {"run", "nsum", "--graph", "kron:6", "--engine", "toy", "--bias", "3",
                                             "--note", "ahoy", "--verify", "--output", (dir / "toy.txt").string(),
                                             "--json", (dir / "toy.json").string()});
  ASSERT_EQ(toy.status, 0) << toy.out << toy.err;
  EXPECT_NE(toy.out.find("Algorithm:  neighbour-sum (toy engine)"), std::string::npos) << toy.out;
  EXPECT_NE(toy.out.find("Toy:        ahoy"), std::string::npos) << toy.out;
  EXPECT_NE(toy.out.find("Verification: PASS (the toy reference)"), std::string::npos) << toy.out;
  const nlohmann::json json = nlohmann::json::parse(read_text(dir / "toy.json"));
  EXPECT_EQ(json["engine"], "toy");
  EXPECT_EQ(json["options"]["bias"], 3);
  EXPECT_EQ(json["engine_stats"]["note"], "ahoy");

  const Outcome seq = courier_cli(registry, {"run", "neighbour-sum", "--graph", "kron:6", "--engine", "seq", "--bias",
                                             "3", "--output", (dir / "seq.txt").string()});
  ASSERT_EQ(seq.status, 0) << seq.out << seq.err;
  EXPECT_EQ(read_text(dir / "toy.txt"), read_text(dir / "seq.txt"));
  EXPECT_EQ(json["summary"]["total"].get<std::uint64_t>() > 0, true);
}

TEST(ToyRegistry, ListShowsTheToysInTheMatrixWithTheirOptions) {
  const Outcome list = courier_cli(toy_registry(), {"list"});
  ASSERT_EQ(list.status, 0) << list.err;
  EXPECT_NE(list.out.find("neighbour-sum"), std::string::npos) << list.out;
  EXPECT_NE(list.out.find("toy       a toy engine"), std::string::npos) << list.out;
  EXPECT_NE(list.out.find("--bias"), std::string::npos) << list.out;
  EXPECT_NE(list.out.find("--note"), std::string::npos) << list.out;
  // The built-in command line knows none of them.
  const Outcome builtin = courier_cli(builtin_registry(), {"list"});
  EXPECT_EQ(builtin.out.find("neighbour-sum"), std::string::npos) << builtin.out;
}

TEST(ToyRegistry, WrongPairsAndOptionsAreRefusedByName) {
  const harness::Registry registry = toy_registry();
  const Outcome bfs = courier_cli(registry, {"run", "bfs", "--graph", "kron:4", "--engine", "toy"});
  EXPECT_NE(bfs.status, 0);
  EXPECT_NE(bfs.err.find("the toy engine does not run bfs (it runs neighbour-sum)"), std::string::npos) << bfs.err;
  const Outcome vertex = courier_cli(registry, {"run", "nsum", "--graph", "kron:4", "--engine", "vertex"});
  EXPECT_NE(vertex.status, 0);
  EXPECT_NE(vertex.err.find("use --engine seq or --engine toy"), std::string::npos) << vertex.err;
  const Outcome bias = courier_cli(registry, {"run", "bfs", "--graph", "kron:4", "--bias", "2"});
  EXPECT_NE(bias.status, 0);
  EXPECT_NE(bias.err.find("--bias is for neighbour-sum"), std::string::npos) << bias.err;
}
