// Runs the courier binary as a user would and checks what it prints, writes and returns.
#include <sys/wait.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace fs = std::filesystem;

namespace {

struct Outcome {
  int status = -1;
  std::string output;  // stdout and stderr together
};

Outcome courier_command(const std::string& line) {
  const std::string command = line + " 2>&1";
  Outcome outcome;
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return outcome;
  char chunk[4096];
  std::size_t n;
  while ((n = fread(chunk, 1, sizeof chunk, pipe)) > 0) outcome.output.append(chunk, n);
  const int raw = pclose(pipe);
  outcome.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  return outcome;
}

Outcome courier(const std::string& arguments) { return courier_command(std::string(COURIER_BINARY) + " " + arguments); }

// The same with environment ENV (NAME=VALUE ...), under a minute's `timeout`: 124 means it hung.
Outcome courier_with(const std::string& env, const std::string& arguments) {
  return courier_command("env " + env + " timeout 60 " + COURIER_BINARY + " " + arguments);
}

// A fresh folder per test.
fs::path scratch(const std::string& name) {
  const fs::path dir = fs::path(COURIER_TEST_TMPDIR) / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

std::string read_text(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

fs::path shared(const char* file) { return fs::path(COURIER_SHARED_DATA) / file; }

}  // namespace

TEST(Cli, HelpShowsAnExampleForEveryCommand) {
  for (const char* command : {"generate", "convert", "info", "run"}) {
    const Outcome help = courier(std::string(command) + " --help");
    EXPECT_EQ(help.status, 0) << command;
    EXPECT_NE(help.output.find("Example: courier " + std::string(command)), std::string::npos) << help.output;
  }
}

// Ids scattered over a huge range: the reader refuses them at their line, naming --compact-ids,
// and convert --compact-ids renumbers them densely, with the original of each new id in --id-map.
TEST(Cli, ConvertCompactsHugeSparseIds) {
  const fs::path dir = scratch("compact");
  {
    std::ofstream out(dir / "sparse.el");
    out << "10 4294967295\n4294967295 7\n7 10\n";
  }
  const std::string el = (dir / "sparse.el").string(), csr = (dir / "dense.csr").string(),
                    ids = (dir / "dense.ids").string();
  const Outcome refused = courier("info " + el);
  EXPECT_EQ(refused.status, 1) << refused.output;
  EXPECT_NE(refused.output.find("sparse.el:1: vertex id 4294967295"), std::string::npos) << refused.output;
  EXPECT_NE(refused.output.find("--compact-ids"), std::string::npos) << refused.output;

  const Outcome converted = courier("convert " + el + " -o " + csr + " --compact-ids --id-map " + ids);
  ASSERT_EQ(converted.status, 0) << converted.output;
  EXPECT_NE(converted.output.find("3 of 4294967296 ids"), std::string::npos) << converted.output;
  EXPECT_EQ(read_text(ids), "7\n10\n4294967295\n");
  // 10 -> 4294967295 -> 7 -> 10 is now 1 -> 2 -> 0 -> 1: a cycle of 3.
  const Outcome bfs = courier("run bfs --graph " + csr + " --source 1 --engine seq --verify");
  ASSERT_EQ(bfs.status, 0) << bfs.output;
  EXPECT_NE(bfs.output.find("Reached:"), std::string::npos) << bfs.output;
  const Outcome info = courier("info " + csr);
  EXPECT_NE(info.output.find("Vertices:           3"), std::string::npos) << info.output;
}

TEST(Cli, GenerateInfoAndConvertAgree) {
  const fs::path dir = scratch("generate");
  const std::string csr = (dir / "k.csr").string(), el = (dir / "k.el").string();
  const Outcome generated = courier("generate kron --scale 8 --seed 3 -o " + csr);
  ASSERT_EQ(generated.status, 0) << generated.output;
  EXPECT_NE(generated.output.find("256 vertices, 4096 edges"), std::string::npos) << generated.output;

  ASSERT_EQ(courier("convert " + csr + " -o " + el).status, 0);
  const Outcome from_csr = courier("info " + csr), from_el = courier("info " + el);
  ASSERT_EQ(from_csr.status, 0) << from_csr.output;
  EXPECT_NE(from_csr.output.find("Edges:              4096"), std::string::npos) << from_csr.output;
  // The same graph whatever the file format, apart from the file names and times.
  auto body = [](const std::string& text) {
    const auto from = text.find("Vertices:"), to = text.find("Time:");
    return text.substr(from, to - from);
  };
  EXPECT_EQ(body(from_csr.output), body(from_el.output));
}

// Partitioned .csr files (issue 16): a run at the file's ranks and policy takes its parts as
// written and writes the values a run on the plain file writes; info says what the file is for.
// `convert --symmetrize` writes a .csr known symmetric: one rank pulls along its out-edges (no
// in-edges of its own, "in-edges 0.00" in -v) and every algorithm equals the sequential reference;
// two ranks transpose as before.
TEST(Cli, ASymmetricCsrNeedsNoInEdgesOnOneRank) {
  const fs::path dir = scratch("symmetric");
  const std::string file = (dir / "sym.csr").string();
  ASSERT_EQ(courier("convert kron:9 --weights --symmetrize -o " + file).status, 0);
  EXPECT_NE(courier("info " + file).output.find("ymmetric"), std::string::npos);
  for (const char* run : {"bfs --direction pull", "bfs", "cc --method label-propagation --direction pull", "cc",
                          "pagerank", "sssp --direction pull", "bc --samples 3"})
    for (int ranks : {1, 2}) {
      const std::string where = std::string(run) + " at " + std::to_string(ranks) + " ranks";
      const std::string expected = (dir / "expected.txt").string(), got = (dir / "got.txt").string();
      const std::string algorithm = std::string(run).substr(0, std::string(run).find(' '));
      const std::string reference = algorithm == "bc" ? "bc --samples 3" : algorithm;  // seq takes no direction
      ASSERT_EQ(courier("run " + reference + " --engine seq --graph " + file + " --output " + expected).status, 0)
          << where;
      const Outcome out = courier("run " + std::string(run) + " --graph " + file + " --ranks " + std::to_string(ranks) +
                                  " --verify -v --output " + got);
      EXPECT_EQ(out.status, 0) << where << "\n" << out.output;
      EXPECT_NE(out.output.find("Verification: PASS"), std::string::npos) << where << "\n" << out.output;
      if (ranks == 1 && algorithm != "pagerank") {
        EXPECT_NE(out.output.find("in-edges 0.00"), std::string::npos) << where << "\n" << out.output;
      }
      if (algorithm != "pagerank" && algorithm != "bc") {
        EXPECT_EQ(read_text(got), read_text(expected)) << where;
      }
    }
}

TEST(Cli, PartitionedCsrRunsEqualPlainOnes) {
  const fs::path dir = scratch("partitioned");
  const std::string plain = (dir / "plain.csr").string(), part = (dir / "part.csr").string();
  ASSERT_EQ(courier("convert kron:9 --weights -o " + plain).status, 0);
  for (const char* algorithm : {"bfs", "sssp", "cc"}) {
    const std::string expected = (dir / "expected.txt").string(), got = (dir / "got.txt").string();
    ASSERT_EQ(
        courier(std::string("run ") + algorithm + " --engine seq --graph " + plain + " --output " + expected).status,
        0);
    for (int ranks = 1; ranks <= 4; ++ranks)
      for (const char* policy : {"oec", "iec", "cvc", "hash"}) {
        const std::string where = std::string(algorithm) + " at " + std::to_string(ranks) + " ranks, " + policy;
        const Outcome converted = courier("convert " + plain + " --partition " + std::to_string(ranks) + " --policy " +
                                          policy + " -o " + part);
        ASSERT_EQ(converted.status, 0) << converted.output;
        const Outcome run = courier(std::string("run ") + algorithm + " --graph " + part + " --ranks " +
                                    std::to_string(ranks) + " --policy " + policy + " --verify -v --output " + got);
        EXPECT_EQ(run.status, 0) << where << "\n" << run.output;
        EXPECT_NE(run.output.find("Verification: PASS"), std::string::npos) << where << "\n" << run.output;
        EXPECT_NE(run.output.find("took its part of"), std::string::npos) << where << "\n" << run.output;
        EXPECT_EQ(read_text(got), read_text(expected)) << where;
      }
  }
  const Outcome info = courier("info " + part);
  EXPECT_NE(info.output.find("Partitioned:        for 4 ranks, policy hash"), std::string::npos) << info.output;
  const auto body = [](const std::string& text) {  // the graph's facts, without names and times
    const auto from = text.find("Vertices:"), to = text.find("Time:");
    return text.substr(from, to - from);
  };
  EXPECT_EQ(body(info.output), body(courier("info " + plain).output));
  // Written for another run: partitioned again, said in -v, the same values.
  const Outcome other = courier("run cc --graph " + part + " --ranks 2 --policy hash -v --verify");
  EXPECT_NE(other.output.find("partitioned for 4 ranks, policy hash, and this run has 2 ranks, policy hash"),
            std::string::npos)
      << other.output;
  EXPECT_NE(other.output.find("Verification: PASS"), std::string::npos) << other.output;
}

TEST(Cli, PartitionedCsrOptionsAreChecked) {
  const fs::path dir = scratch("partitioned_options");
  const std::string el = (dir / "g.el").string(), csr = (dir / "g.csr").string();
  const Outcome not_csr = courier("convert kron:6 --partition 2 -o " + el);
  EXPECT_NE(not_csr.status, 0);
  EXPECT_NE(not_csr.output.find("--partition writes a partitioned .csr"), std::string::npos) << not_csr.output;
  EXPECT_FALSE(fs::exists(el));
  const Outcome alone = courier("convert kron:6 --policy cvc -o " + csr);
  EXPECT_NE(alone.status, 0);
  EXPECT_NE(alone.output.find("add --partition N"), std::string::npos) << alone.output;
  EXPECT_NE(courier("convert kron:6 --partition 2 --policy nope -o " + csr).status, 0);
  EXPECT_NE(courier("convert kron:6 --partition 0 -o " + csr).status, 0);
  EXPECT_FALSE(fs::exists(csr));
}

TEST(Cli, GeneratesPathsAndGridsAndRunsOnTheirSpecs) {
  const fs::path dir = scratch("lattice");
  const std::string grid = (dir / "g.el").string();
  const Outcome generated = courier("generate grid --rows 30 --columns 20 --weights -o " + grid);
  ASSERT_EQ(generated.status, 0) << generated.output;
  EXPECT_NE(generated.output.find("grid:30x20: 600 vertices, 2300 edges"), std::string::npos) << generated.output;
  const Outcome missing = courier("generate path -o " + (dir / "p.el").string());
  EXPECT_NE(missing.status, 0);
  EXPECT_NE(missing.output.find("needs --vertices N"), std::string::npos) << missing.output;
  for (const std::string& graph : {grid, std::string("grid:30x20:seed=1"), std::string("path:500")}) {
    const std::string weights = graph == grid ? "" : " --weights";  // the file has its own
    const Outcome run = courier("run sssp --graph " + graph + weights + " --source 0 --ranks 2 --verify");
    EXPECT_EQ(run.status, 0) << graph << "\n" << run.output;
    EXPECT_NE(run.output.find("Verification: PASS"), std::string::npos) << graph << "\n" << run.output;
  }
  const Outcome path = courier("run bfs --graph path:500 --source 0 --ranks 2");
  EXPECT_NE(path.output.find("Levels:     500"), std::string::npos) << path.output;
}

TEST(Cli, RunVerifiesEveryAlgorithmOnEveryEngine) {
  for (const char* engine : {"--engine seq", "--ranks 1", "--ranks 3 --policy cvc", "--ranks 2 --policy hash --threads 1",
                             "--ranks 4 --policy iec"})
    for (const char* algorithm : {"bfs", "sssp", "cc", "pagerank", "tc", "kcore", "degree", "spmv"}) {
      const Outcome run = courier(std::string("run ") + algorithm + " --graph kron:9 --weights --verify " + engine);
      EXPECT_EQ(run.status, 0) << algorithm << " " << engine << "\n" << run.output;
      EXPECT_NE(run.output.find("Verification: PASS"), std::string::npos) << algorithm << " " << engine << "\n"
                                                                            << run.output;
    }
}

TEST(Cli, EnginesAgreeOnTheSummary) {
  for (const char* algorithm : {"bfs", "cc", "tc", "kcore"}) {
    const std::string graph = " --graph urand:10 --symmetrize";
    const Outcome seq = courier(std::string("run ") + algorithm + graph + " --engine seq");
    const Outcome vertex = courier(std::string("run ") + algorithm + graph + " --ranks 3 --policy cvc");
    ASSERT_EQ(seq.status, 0) << seq.output;
    ASSERT_EQ(vertex.status, 0) << vertex.output;
    // The lines between the graph line and the time line are the summary.
    auto summary = [](const std::string& text) {
      const auto from = text.find('\n', text.find("Graph:")), to = text.find("Time:");
      return text.substr(from, to - from);
    };
    EXPECT_EQ(summary(seq.output), summary(vertex.output)) << algorithm;
  }
}

// --ranks 3: every rank thread reads its own part of the file; the values equal the sequential
// reference's, for every format `convert` writes.
TEST(Cli, RankThreadsLoadEveryFormatInPartsAndMatchTheReference) {
  const fs::path dir = scratch("parts");
  for (const char* extension : {".wel", ".mtx", ".gr", ".bel", ".csr", ".graph"}) {
    const std::string graph = (dir / (std::string("g") + extension)).string();
    // METIS holds simple undirected graphs, without weights here (dedupe keeps one copy's weight,
    // which need not be its reverse's).
    const bool metis = std::string(extension) == ".graph";
    const Outcome convert = courier("convert kron:9 -o " + graph +
                                    (metis ? " --symmetrize --drop-self-loops --dedupe" : " --weights"));
    ASSERT_EQ(convert.status, 0) << convert.output;
    const std::string read_as = std::string(extension) == ".bel" ? graph + " --binary-weight uint32" : graph;
    for (const char* algorithm : {"bfs", "sssp", "cc", "kcore", "tc"}) {
      if (metis && std::string(algorithm) == "sssp") continue;
      SCOPED_TRACE(std::string(algorithm) + " on " + graph);
      const fs::path seq = dir / "seq.txt", parts = dir / "parts.txt";
      const Outcome a = courier(std::string("run ") + algorithm + " --engine seq --graph " + read_as + " --output " + seq.string());
      const Outcome b = courier(std::string("run ") + algorithm + " --ranks 3 --policy cvc --graph " + read_as +
                                " --output " + parts.string());
      ASSERT_EQ(a.status, 0) << a.output;
      ASSERT_EQ(b.status, 0) << b.output;
      EXPECT_EQ(read_text(seq), read_text(parts));
      // The summary reports the whole graph's size, summed over the ranks.
      const auto graph_line = [](const std::string& text) { return text.substr(text.find("Graph:"), text.find('\n', text.find("Graph:")) - text.find("Graph:")); };
      EXPECT_EQ(graph_line(a.output), graph_line(b.output));
    }
  }
}

TEST(Cli, RankThreadsReportLoadAndPartitionInTheJson) {
  const fs::path dir = scratch("load_json");
  const Outcome run = courier("run cc --graph kron:9 --ranks 2 --json " + (dir / "r.json").string());
  ASSERT_EQ(run.status, 0) << run.output;
  EXPECT_NE(run.output.find("partition"), std::string::npos);
  const auto json = nlohmann::json::parse(read_text(dir / "r.json"));
  EXPECT_GE(json["times"]["load"].get<double>(), 0.0);
  EXPECT_GE(json["times"]["partition"].get<double>(), 0.0);
  EXPECT_GT(json["engine_stats"]["replication"].get<double>(), 1.0);
  EXPECT_GE(json["engine_stats"]["edge_imbalance"].get<double>(), 1.0);
  EXPECT_EQ(json["edges"], 8192);  // kron:9: 16 * 2^9
}

// Every distributed engine reports gathering its values to rank 0 as a phase of its own, not as
// part of the run's time.
TEST(Cli, EveryDistributedEngineReportsItsGather) {
  const fs::path dir = scratch("gather_json");
  for (const std::string engine : {"vertex", "dsl", "la", "mailbox"}) {
    const Outcome run =
        courier("run cc --graph kron:9 --ranks 2 --engine " + engine + " --json " + (dir / "r.json").string());
    ASSERT_EQ(run.status, 0) << engine << ": " << run.output;
    EXPECT_NE(run.output.find(", gather "), std::string::npos) << engine << ": " << run.output;
    const auto json = nlohmann::json::parse(read_text(dir / "r.json"));
    ASSERT_TRUE(json["times"].contains("gather")) << engine << ": " << json.dump();
    EXPECT_GE(json["times"]["gather"].get<double>(), 0.0) << engine;
    EXPECT_GT(json["times"]["run"].get<double>(), 0.0) << engine;
  }
}

// Issue 19: each round says which way it went, in the JSON and with --verbose: forced push and
// pull go one way every round; bfs's rule on a Kronecker graph pulls some middle rounds only.
TEST(Cli, EveryRoundSaysItsDirection) {
  const fs::path dir = scratch("direction_json");
  for (const std::string direction : {"push", "pull", "auto"}) {
    const Outcome run = courier("run bfs --graph kron:14 --ranks 2 -v --direction " + direction + " --json " +
                                (dir / "r.json").string());
    ASSERT_EQ(run.status, 0) << run.output;
    const auto json = nlohmann::json::parse(read_text(dir / "r.json"));
    std::size_t pulled = 0, rounds = 0;
    for (const auto& round : json["engine_stats"]["per_round"]) {
      ++rounds;
      if (round["direction"] == "pull") ++pulled;
    }
    ASSERT_GT(rounds, 2u) << direction;
    if (direction == "push") {
      EXPECT_EQ(pulled, 0u);
    } else if (direction == "pull") {
      EXPECT_EQ(pulled, rounds);
    } else {
      EXPECT_GT(pulled, 0u);
      EXPECT_LT(pulled, rounds);
      EXPECT_NE(run.output.find(" pull\n"), std::string::npos) << run.output;
      EXPECT_NE(run.output.find(" push\n"), std::string::npos) << run.output;
    }
  }
}

// Issue 19: sssp, cc's label propagation and pagerank go each way when forced, and verify; on a
// Kronecker graph Gemini's rule pulls the dense middle rounds of sssp and cc and pushes the rest;
// pagerank, every vertex active every step, always pulls on auto.
TEST(Cli, SsspCcAndPagerankSwitchDirection) {
  const fs::path dir = scratch("directions");
  for (const std::string algorithm : {"sssp --weights --delta 0", "cc --method label-propagation", "pagerank"})
    for (const std::string direction : {"push", "pull", "auto"}) {
      SCOPED_TRACE(algorithm + " " + direction);
      const Outcome run = courier("run " + algorithm + " --graph kron:14 --ranks 2 -v --verify --direction " +
                                  direction + " --json " + (dir / "r.json").string());
      ASSERT_EQ(run.status, 0) << run.output;
      EXPECT_NE(run.output.find("Verification: PASS"), std::string::npos) << run.output;
      const auto json = nlohmann::json::parse(read_text(dir / "r.json"));
      std::size_t pulled = 0, rounds = 0;
      for (const auto& round : json["engine_stats"]["per_round"]) {
        ++rounds;
        if (round["direction"] == "pull") ++pulled;
      }
      ASSERT_GT(rounds, 2u);
      if (direction == "push") {
        EXPECT_EQ(pulled, 0u);
      } else if (direction == "pull" || algorithm == "pagerank") {
        EXPECT_EQ(pulled, rounds);
      } else {
        EXPECT_GT(pulled, 0u);
        EXPECT_LT(pulled, rounds);
      }
    }
  const Outcome union_find = courier("run cc --graph kron:9 --direction pull");
  EXPECT_NE(union_find.status, 0);
  EXPECT_NE(union_find.output.find("--direction is for --method label-propagation"), std::string::npos)
      << union_find.output;
}

// Issue 19: bc on the vertex engine from sampled sources (the same on any rank count, and the
// reference's), exact only on request below a size, weighted by request.
TEST(Cli, BcSamplesSourcesAndRefusesExactOnLargeGraphs) {
  const fs::path dir = scratch("bc");
  std::vector<nlohmann::json> sources;
  for (const char* ranks : {"1", "3"}) {
    const Outcome run = courier(std::string("run bc --graph kron:9 --ranks ") + ranks +
                                " --samples 5 --sample-seed 11 --verify --json " + (dir / "r.json").string());
    ASSERT_EQ(run.status, 0) << run.output;
    EXPECT_NE(run.output.find("Verification: PASS"), std::string::npos) << run.output;
    sources.push_back(nlohmann::json::parse(read_text(dir / "r.json"))["summary"]["sources"]);
    EXPECT_EQ(sources.back().size(), 5u);
  }
  EXPECT_EQ(sources[0], sources[1]);
  const Outcome exact = courier("run bc --graph kron:17 --ranks 2 --exact");
  EXPECT_NE(exact.status, 0);
  EXPECT_NE(exact.output.find("raise --exact-max-vertices"), std::string::npos) << exact.output;
  const Outcome weighted = courier("run bc --graph grid:12x9 --weights --ranks 2 --exact --weighted --verify");
  EXPECT_EQ(weighted.status, 0) << weighted.output;
  EXPECT_NE(weighted.output.find("all 108 vertices (exact); shortest paths by weight"), std::string::npos)
      << weighted.output;
  EXPECT_NE(weighted.output.find("Verification: PASS"), std::string::npos) << weighted.output;
}

// Issue 16: bytes per edge of each structure, in the JSON and with --verbose. kron:9 from a .csr on
// 2 ranks with in-edges (bfs): each edge's target is 4 bytes in the CSR and 4 in the in-edges, plus
// each proxy's 4-byte offset (a rank's edges fit 32 bits); the peak resident memory covers at least
// the structures.
TEST(Cli, TheVertexEngineReportsBytesPerEdgeOfEachStructure) {
  const fs::path dir = scratch("memory_json");
  const std::string graph = (dir / "k9.csr").string();
  ASSERT_EQ(courier("generate kron --scale 9 -o " + graph).status, 0);
  for (const char* ranks : {"1", "2"}) {
    const Outcome run = courier(std::string("run bfs --graph ") + graph + " --ranks " + ranks + " -v --json " +
                                (dir / "r.json").string());
    ASSERT_EQ(run.status, 0) << run.output;
    EXPECT_NE(run.output.find("Memory:     peak "), std::string::npos) << run.output;
    EXPECT_NE(run.output.find("per edge: CSR "), std::string::npos) << run.output;
    const auto json = nlohmann::json::parse(read_text(dir / "r.json"));
    const auto& memory = json["engine_stats"]["memory"];
    const std::uint64_t edges = memory["edges"].get<std::uint64_t>();
    EXPECT_EQ(edges, 8192u);
    const std::uint64_t vertices = 512, proxies_at_most = vertices * 2;
    const auto bytes = [&](const char* name) { return memory[std::string(name) + "_bytes"].get<std::uint64_t>(); };
    for (const char* name : {"csr", "in_edges"}) {
      EXPECT_GE(bytes(name), edges * 4 + (vertices + 1) * 4) << name;
      EXPECT_LE(bytes(name), edges * 4 + (proxies_at_most + 2) * 4) << name;
      EXPECT_DOUBLE_EQ(memory[std::string(name) + "_bytes_per_edge"].get<double>(),
                       static_cast<double>(bytes(name)) / static_cast<double>(edges));
    }
    if (std::string(ranks) == "1")
      EXPECT_EQ(bytes("proxies"), 0u);  // no mirrors
    else
      EXPECT_GT(bytes("proxies"), 0u);
    EXPECT_GT(bytes("maps"), 0u);
    // The channel's buffers are the run's peak on its busiest rank, none without a peer.
    EXPECT_EQ(bytes("buffers"), json["engine_stats"]["buffer_bytes_peak"].get<std::uint64_t>());
    if (std::string(ranks) == "1")
      EXPECT_EQ(bytes("buffers"), 0u);
    else
      EXPECT_GT(bytes("buffers"), 0u);
    EXPECT_NE(run.output.find(", buffers "), std::string::npos) << run.output;
    EXPECT_EQ(bytes("graph"), bytes("csr") + bytes("in_edges") + bytes("proxies") + bytes("maps"));
    EXPECT_GT(bytes("peak_resident"), bytes("graph"));
  }
  // degree needs no in-edges: none are built.
  ASSERT_EQ(courier("run degree --graph " + graph + " --ranks 2 --json " + (dir / "degree.json").string()).status, 0);
  EXPECT_EQ(nlohmann::json::parse(read_text(dir / "degree.json"))["engine_stats"]["memory"]["in_edges_bytes"], 0);
}

TEST(Cli, TheVertexEngineReportsEveryRoundOnRequest) {
  const fs::path dir = scratch("rounds");
  const Outcome run = courier("run bfs --graph kron:9 --symmetrize --ranks 2 -v --json " + (dir / "r.json").string());
  ASSERT_EQ(run.status, 0) << run.output;
  const auto json = nlohmann::json::parse(read_text(dir / "r.json"));
  const auto& stats = json["engine_stats"];
  const auto& rounds = stats["per_round"];
  ASSERT_EQ(rounds.size(), stats["rounds"].get<std::size_t>());
  ASSERT_GT(rounds.size(), 1u);
  std::uint64_t messages = 0;
  for (const auto& round : rounds) {
    EXPECT_GT(round["active"].get<std::uint64_t>(), 0u);
    EXPECT_GT(round["messages"].get<std::uint64_t>(), 0u);  // two ranks synchronise every round
    messages += round["messages"].get<std::uint64_t>();
  }
  EXPECT_LE(messages, stats["messages"].get<std::uint64_t>());
  // The table: a header and a line per round.
  EXPECT_NE(run.output.find("Rounds:     round"), std::string::npos) << run.output;
  std::string last = std::to_string(rounds.size() - 1);
  last = "\n            " + std::string(5 - last.size(), ' ') + last + " ";
  EXPECT_NE(run.output.find(last), std::string::npos) << run.output;
}

TEST(Cli, TheVertexEngineReportsItsChannelsBuffersAndRunsUnpinnedOnRequest) {
  const fs::path dir = scratch("buffers");
  for (const char* pin : {"", " --no-pin"}) {
    const Outcome run = courier(std::string("run pagerank --graph kron:10 --symmetrize --ranks 2 --threads 1 --verify") +
                                pin + " --json " + (dir / "r.json").string());
    ASSERT_EQ(run.status, 0) << run.output;
    EXPECT_NE(run.output.find("Buffers:    peak "), std::string::npos) << run.output;
    const auto json = nlohmann::json::parse(read_text(dir / "r.json"));
    EXPECT_GT(json["engine_stats"]["buffer_bytes_peak"].get<std::uint64_t>(), 0u);
    EXPECT_GE(json["engine_stats"]["setup_seconds"].get<double>(), 0.0);
    EXPECT_EQ(json["verification"], "PASS");
  }
}

TEST(Cli, TheLciChannelRunsInEveryProgressModeAndRejectsOthersClearly) {
  const fs::path dir = scratch("progress");
  for (const char* mode : {"auto", "thread", "explicit"}) {
    const Outcome run = courier(std::string("run cc --graph kron:10 --ranks 3 --threads 2 --verify --comm-progress ") +
                                mode + " --json " + (dir / "r.json").string());
    ASSERT_EQ(run.status, 0) << run.output;
    const auto json = nlohmann::json::parse(read_text(dir / "r.json"));
    EXPECT_EQ(json["options"]["comm-progress"], mode);
    // auto names what it chose: 3 ranks x 2 threads leave no hardware thread spare on a machine
    // with fewer than 7.
    const bool thread = json["engine_stats"]["progress_thread"].get<bool>();
    const std::string line = std::string(mode) == "auto" ? std::string("auto: ") + (thread ? "thread" : "explicit") : mode;
    EXPECT_NE(run.output.find("channel lci (progress " + line + ")"), std::string::npos) << run.output;
    if (std::string(mode) != "auto") {
      EXPECT_EQ(thread, std::string(mode) == "thread");
    } else if (std::thread::hardware_concurrency() < 7) {
      EXPECT_FALSE(thread);
    }
    EXPECT_EQ(json["verification"], "PASS");
  }
  const Outcome bad = courier("run cc --graph kron:4 --comm-progress sometimes");
  EXPECT_NE(bad.status, 0);
  EXPECT_NE(bad.output.find("no progress mode 'sometimes' (choose auto"), std::string::npos) << bad.output;
}

TEST(Cli, SsspOnRome99MatchesThePublishedDistances) {
  if (!fs::exists(shared("rome99.gr"))) GTEST_SKIP() << "no ../shared/data: the real graphs are not here";
  const fs::path dir = scratch("rome99");
  const Outcome run = courier("run sssp --graph " + shared("rome99.gr").string() +
                              " --source 1754 --dedupe --verify --json " + (dir / "r.json").string());
  ASSERT_EQ(run.status, 0) << run.output;
  // DIMACS ids are 1-based: vertex 1755 of the file is 1754 here.
  EXPECT_NE(run.output.find("sum 34019747, largest 43069"), std::string::npos) << run.output;
  const auto json = nlohmann::json::parse(read_text(dir / "r.json"));
  EXPECT_EQ(json["summary"]["distance_sum"], 34019747);
  EXPECT_EQ(json["summary"]["reached"], 3353);
  EXPECT_EQ(json["verification"], "PASS");
}

TEST(Cli, OutputHasOneLinePerVertexWithInfForUnreached) {
  const fs::path dir = scratch("output");
  {
    std::ofstream graph(dir / "g.el");
    graph << "0 1\n1 2\n3 0\n";  // 3 cannot be reached from 0
  }
  const Outcome run = courier("run bfs --graph " + (dir / "g.el").string() + " --source 0 --output " +
                              (dir / "levels.txt").string());
  ASSERT_EQ(run.status, 0) << run.output;
  EXPECT_EQ(read_text(dir / "levels.txt"), "0 0\n1 1\n2 2\n3 inf\n");
}

TEST(Cli, MalformedInputNamesFileAndLineAndWritesNothing) {
  const fs::path dir = scratch("malformed");
  {
    std::ofstream graph(dir / "bad.el");
    graph << "0 1\n1 x\n";
  }
  const Outcome run = courier("run bfs --graph " + (dir / "bad.el").string() + " --output " + (dir / "out.txt").string());
  EXPECT_NE(run.status, 0);
  EXPECT_NE(run.output.find("bad.el:2:"), std::string::npos) << run.output;
  // Read in parts, the line is still counted from the start of the file.
  const Outcome parts = courier("run bfs --ranks 4 --graph " + (dir / "bad.el").string());
  EXPECT_EQ(parts.status, 1);
  EXPECT_NE(parts.output.find("bad.el:2: target id 'x'"), std::string::npos) << parts.output;
  EXPECT_FALSE(fs::exists(dir / "out.txt"));
  const Outcome convert = courier("convert " + (dir / "bad.el").string() + " -o " + (dir / "out.csr").string());
  EXPECT_NE(convert.status, 0);
  EXPECT_TRUE(fs::is_empty(dir / "") || !fs::exists(dir / "out.csr"));
  for (const auto& entry : fs::directory_iterator(dir)) EXPECT_EQ(entry.path().filename(), "bad.el");
}

// A failure on one rank only, after the agreed read checks (injected with COURIER_FAIL_ON_RANK):
// while partitioning every rank agrees on it; later, the failing rank ends the whole process. Either
// way the run ends promptly (`timeout` would exit 124 on a hang), with the error and status 1, and
// writes nothing.
TEST(Cli, OneRankFailingEndsTheWholeRunWithItsError) {
  const fs::path dir = scratch("one_rank_fails");
  struct Case {
    const char* injection;
    const char* run;
    const char* message;
  };
  for (const Case& c : {
           Case{"1:transform", "bfs --ranks 3 --dedupe", "partitioning failed on rank 1: injected failure at step 'transform'"},
           Case{"2:shuffle", "cc --ranks 3 --dedupe --policy cvc", "partitioning failed on rank 2: injected failure at step 'shuffle'"},
           Case{"1:degrees", "pagerank --ranks 2", "partitioning failed on rank 1: injected failure at step 'degrees'"},
           Case{"0:local graph:oom", "kcore --ranks 4", "partitioning failed on rank 0: out of memory (std::bad_alloc)"},
           Case{"2:run", "bfs --ranks 3 --policy cvc", "error (rank 2 of 3): injected failure at step 'run' on rank 2"},
           Case{"0:run", "sssp --weights --ranks 2", "error (rank 0 of 2): injected failure at step 'run' on rank 0"},
           Case{"1:run:oom", "cc --ranks 2", "error (rank 1 of 2): out of memory (std::bad_alloc)"},
           Case{"1:run", "cc --engine mailbox --ranks 3", "error (rank 1 of 3): injected failure at step 'run' on rank 1"},
       }) {
    SCOPED_TRACE(std::string(c.injection) + ": " + c.run);
    const fs::path out = dir / "values.txt", json = dir / "run.json";
    const Outcome run = courier_with("COURIER_FAIL_ON_RANK='" + std::string(c.injection) + "'",
                                     std::string("run ") + c.run + " --graph kron:10 --output " + out.string() +
                                         " --json " + json.string());
    EXPECT_EQ(run.status, 1) << run.output;  // 124: it hung
    EXPECT_NE(run.output.find(c.message), std::string::npos) << run.output;
    EXPECT_FALSE(fs::exists(out));
    EXPECT_FALSE(fs::exists(json));
    for (const auto& entry : fs::directory_iterator(dir)) ADD_FAILURE() << "left behind: " << entry.path();
  }
  // Without an injection for this rank or step the run is unaffected.
  const Outcome other = courier_with("COURIER_FAIL_ON_RANK='5:run'", "run bfs --graph kron:8 --ranks 2 --verify");
  EXPECT_EQ(other.status, 0) << other.output;
  const Outcome malformed = courier_with("COURIER_FAIL_ON_RANK=one", "run bfs --graph kron:8 --ranks 2");
  EXPECT_EQ(malformed.status, 1) << malformed.output;
  EXPECT_NE(malformed.output.find("expected RANK:STEP"), std::string::npos) << malformed.output;
}

TEST(Cli, CorruptedCsrFailsOnEveryRankThread) {
  const fs::path dir = scratch("corrupted_csr");
  const std::string graph = (dir / "g.csr").string();
  ASSERT_EQ(courier("convert kron:8 --weights -o " + graph).status, 0);
  std::string bytes;
  {
    std::ifstream in(graph, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), {});
  }
  bytes[bytes.size() - 16] ^= 0x55;  // a weight: only the checksum notices
  std::ofstream(graph, std::ios::binary | std::ios::trunc) << bytes;
  for (const char* engine : {"--ranks 1", "--ranks 3", "--engine mailbox --ranks 2", "--engine seq"}) {
    const Outcome run = courier(std::string("run cc --graph ") + graph + " " + engine);
    EXPECT_EQ(run.status, 1) << engine << ": " << run.output;
    EXPECT_NE(run.output.find("g.csr: checksum mismatch"), std::string::npos) << engine << ": " << run.output;
    EXPECT_EQ(run.output.find("(rank"), std::string::npos) << engine << ": a rank failed alone: " << run.output;
  }
}

TEST(Cli, WrongOptionsFailWithAClearMessage) {
  EXPECT_NE(courier("run nosuch --graph kron:4").status, 0);
  const Outcome source = courier("run bfs --graph kron:4 --source 99");
  EXPECT_NE(source.status, 0);
  EXPECT_NE(source.output.find("--source 99"), std::string::npos) << source.output;
  const Outcome extension = courier("generate kron --scale 4 -o graph.xyz");
  EXPECT_NE(extension.status, 0);
  EXPECT_NE(extension.output.find(".xyz"), std::string::npos) << extension.output;
  const Outcome channel = courier("run bfs --graph kron:4 --channel mpi-probe");
  EXPECT_NE(channel.status, 0);
  EXPECT_NE(channel.output.find("mpirun"), std::string::npos) << channel.output;
  const Outcome former = courier("run bfs --graph kron:4 --comm mpi-probe");  // the former name still works
  EXPECT_NE(former.status, 0);
  EXPECT_NE(former.output.find("--channel mpi-probe needs MPI"), std::string::npos) << former.output;
  EXPECT_NE(courier("run bfs --graph kron:4 --policy metis").status, 0);
  const Outcome unweighted = courier("run sssp --graph kron:4");
  EXPECT_NE(unweighted.status, 0);
  EXPECT_NE(unweighted.output.find("weight"), std::string::npos) << unweighted.output;
  const Outcome weight_type = courier("run bfs --graph kron:4 --binary-weight int64");
  EXPECT_NE(weight_type.status, 0);
  EXPECT_NE(weight_type.output.find("'int64' is not a weight type: use none, uint32 or float"), std::string::npos)
      << weight_type.output;
  const fs::path dir = scratch("wrong_options");
  const std::string binary = (dir / "weighted.bel").string();
  ASSERT_EQ(courier("generate kron --scale 4 --weights -o " + binary).status, 0);
  EXPECT_EQ(courier("run bfs --graph " + binary + " --binary-weight UInt32").status, 0);
}

// Options the run would ignore are refused, each naming what it is for (issue 17).
TEST(Cli, OptionsThatWouldBeIgnoredAreRefused) {
  const std::string mtx = std::string(COURIER_SHARED_DATA) + "/Lederberg.mtx";
  const std::string gr = std::string(COURIER_SHARED_DATA) + "/rome99.gr";
  const std::vector<std::pair<std::string, std::string>> cases{
      {"run bfs --graph kron:4 --engine seq --ranks 4", "the seq engine runs on one rank"},
      {"run bfs --graph kron:4 --engine seq --threads 2", "the seq engine runs on one thread"},
      {"run bfs --graph " + mtx + " --base 1", "--base is for text edge lists"},
      {"info kron:4 --base 1", "--base reads files"},
      {"run bfs --graph kron:4 --binary-weight uint32", "--binary-weight reads files"},
      {"info " + gr + " --weights", "--weights is for generated graphs"},
      {"convert " + gr + " -o never.csr --id-bytes 4", "--id-bytes is for binary edge lists"},
      {"run pagerank --graph kron:4 --iterations 0", "--iterations 0: write a whole number from 1"},
      {"run pagerank --graph kron:4 --tolerance -1", "--tolerance -1"},
      {"run bfs --graph kron:4 --source -1", "--source -1: is negative"},
      {"run bfs --graph kron:4 --source 99999999999999999999", "is too large"},
      {"generate kron --scale 40 -o never.csr", "kron:40 needs about 16.0 TiB, and this machine has"},
      {"generate kron --scale 40 -o never.el", "kron:40 needs about 256.0 TiB, and this machine has"},
      {"run bfs --graph kron:40 --ranks 2", "needs about"},
      {"run sssp --graph kron:4 --weights --engine dsl --delta 0",
       "--delta is for sssp (vertex, la): not for sssp on the dsl"},
      {"run bfs --graph kron:4 --engine dsl --direction push", "use --engine vertex or --engine la"},
      {"run cc --graph kron:4 --engine seq --method label-propagation", "use --engine vertex"},
      {"run bfs --graph kron:4 --direction sideways", "--direction"},
      {"run bfs --graph kron:4 --ranks 2 --watchdog 5", "--watchdog is for runs under mpirun"},
  };
  for (const auto& [arguments, words] : cases) {
    const Outcome outcome = courier(arguments);
    EXPECT_NE(outcome.status, 0) << arguments;
    EXPECT_NE(outcome.output.find(words), std::string::npos) << arguments << ": " << outcome.output;
  }
  EXPECT_FALSE(fs::exists("never.csr"));
  const Outcome step = courier_with("COURIER_FAIL_ON_RANK=1:nosuchstep", "run bfs --graph kron:4 --ranks 2");
  EXPECT_NE(step.status, 0);
  EXPECT_NE(step.output.find("'nosuchstep' is not a step"), std::string::npos) << step.output;
}

TEST(Cli, EveryBfsDirectionAndCcMethodVerifies) {
  for (const std::string variant : {"bfs --direction push", "bfs --direction pull", "bfs --direction auto",
                                    "cc --method label-propagation", "cc --method union-find"}) {
    const Outcome outcome = courier("run " + variant + " --graph kron:9 --ranks 2 --threads 2 --verify");
    EXPECT_EQ(outcome.status, 0) << variant << ": " << outcome.output;
    EXPECT_NE(outcome.output.find("Verification: PASS"), std::string::npos) << variant << ": " << outcome.output;
  }
}

TEST(Cli, MailboxEngineVerifiesEachApplication) {
  for (const char* engine : {"--ranks 1", "--ranks 3 --routing nl --layout 2x2", "--ranks 4 --routing nlnr --layout 2x2 --capacity 64",
                             "--ranks 8 --routing nr --layout 4x2 --delegates 20", "--ranks 2 --delegates none"})
    for (const char* algorithm : {"degree", "cc", "spmv"}) {
      const Outcome run = courier(std::string("run ") + algorithm + " --graph kron:9 --weights --verify --engine mailbox " + engine);
      EXPECT_EQ(run.status, 0) << algorithm << " " << engine << "\n" << run.output;
      EXPECT_NE(run.output.find("Verification: PASS"), std::string::npos) << algorithm << " " << engine << "\n"
                                                                            << run.output;
    }
}

TEST(Cli, MailboxEngineAgreesWithSeqAndReportsItsMailbox) {
  const fs::path dir = scratch("mailbox");
  const std::string graph = " --graph urand:9 --symmetrize";
  const Outcome seq = courier("run cc" + graph + " --engine seq --output " + (dir / "seq.txt").string() + " --json " +
                              (dir / "s.json").string());
  const Outcome mailbox = courier("run cc" + graph + " --engine mailbox --ranks 4 --routing nlnr --layout 2x2 --verbose" +
                                  " --output " + (dir / "mailbox.txt").string() + " --json " + (dir / "m.json").string());
  ASSERT_EQ(seq.status, 0) << seq.output;
  ASSERT_EQ(mailbox.status, 0) << mailbox.output;
  EXPECT_EQ(read_text(dir / "seq.txt"), read_text(dir / "mailbox.txt"));
  // --verbose echoes the configuration at start and prints every rank's statistics.
  EXPECT_NE(mailbox.output.find("routing nlnr, 2 nodes x 2 cores"), std::string::npos) << mailbox.output;
  EXPECT_NE(mailbox.output.find("rank 3 "), std::string::npos) << mailbox.output;
  const auto json = nlohmann::json::parse(read_text(dir / "m.json"));
  EXPECT_EQ(json["engine"], "mailbox");
  EXPECT_EQ(json["options"]["routing"], "nlnr");
  EXPECT_EQ(json["engine_stats"]["ranks"], 4);
  EXPECT_EQ(json["engine_stats"]["per_rank"].size(), 4u);
  EXPECT_GT(json["engine_stats"]["mailbox"]["messages_remote"].get<std::uint64_t>(), 0u);
  EXPECT_GT(json["engine_stats"]["mailbox"]["messages_forwarded"].get<std::uint64_t>(), 0u);  // nlnr relays
  EXPECT_EQ(json["summary"], nlohmann::json::parse(read_text(dir / "s.json"))["summary"]);
}

// "vertex value" lines, as --output writes them.
std::vector<std::pair<std::uint64_t, double>> read_values(const fs::path& path) {
  std::ifstream in(path);
  std::vector<std::pair<std::uint64_t, double>> values;
  std::uint64_t v;
  double value;
  while (in >> v >> value) values.emplace_back(v, value);
  return values;
}

TEST(Cli, MailboxEngineReadsItsPartsAndWritesWhatSeqWrites) {
  const fs::path dir = scratch("mailbox_parts");
  for (const char* ext : {"wel", "csr"}) {
    const std::string graph = (dir / (std::string("g.") + ext)).string();
    ASSERT_EQ(courier("convert kron:9 --weights -o " + graph).status, 0) << graph;
    for (const char* algorithm : {"degree", "cc", "spmv"}) {
      const std::string what = std::string(algorithm) + " on " + graph;
      const std::string seq_out = (dir / "seq.txt").string(), mailbox_out = (dir / "mailbox.txt").string();
      const Outcome seq = courier(std::string("run ") + algorithm + " --engine seq --graph " + graph + " --output " + seq_out);
      const Outcome mailbox = courier(std::string("run ") + algorithm + " --engine mailbox --ranks 3 --graph " + graph +
                                      " --output " + mailbox_out);
      ASSERT_EQ(seq.status, 0) << what << "\n" << seq.output;
      ASSERT_EQ(mailbox.status, 0) << what << "\n" << mailbox.output;
      // The counts come from the ranks' parts, summed: the same graph as seq read whole.
      EXPECT_NE(mailbox.output.find("(512 vertices, 8192 edges)"), std::string::npos) << what << "\n" << mailbox.output;
      if (std::string(algorithm) != "spmv") {
        EXPECT_EQ(read_text(seq_out), read_text(mailbox_out)) << what;
        continue;
      }
      // Sums of reals in another order: equal to rounding.
      const auto expected = read_values(seq_out), got = read_values(mailbox_out);
      ASSERT_EQ(expected.size(), 512u) << what;
      ASSERT_EQ(got.size(), expected.size()) << what;
      for (std::size_t i = 0; i < got.size(); ++i) {
        EXPECT_EQ(got[i].first, expected[i].first) << what;
        EXPECT_NEAR(got[i].second, expected[i].second, 1e-12 * (1 + std::abs(expected[i].second))) << what;
      }
    }
  }
  // A malformed file: every rank stops with the reader's FILE:LINE message.
  {
    std::ofstream bad(dir / "bad.el");
    bad << "0 1\n1 2\n2 3\n3 4\n4 5\n5 6\n6 7\n7 8\n8 9\n9 x\n";
  }
  const Outcome bad = courier("run degree --engine mailbox --ranks 3 --graph " + (dir / "bad.el").string());
  EXPECT_NE(bad.status, 0);
  EXPECT_NE(bad.output.find("bad.el:10: target id 'x'"), std::string::npos) << bad.output;
  // --dedupe needs an edge's copies on one rank: refused, naming the way out.
  const Outcome dedupe = courier("run cc --engine mailbox --ranks 2 --graph kron:6 --dedupe");
  EXPECT_NE(dedupe.status, 0);
  EXPECT_NE(dedupe.output.find("--dedupe"), std::string::npos) << dedupe.output;
  EXPECT_NE(dedupe.output.find("--engine vertex"), std::string::npos) << dedupe.output;
}

TEST(Cli, DegreeIsOutDegreeOnEveryEngine) {
  const fs::path dir = scratch("degree_engines");
  {
    std::ofstream graph(dir / "g.el");
    graph << "0 1\n0 2\n1 2\n2 2\n";  // out-degrees 2 1 1; in + out would be 2 2 4
  }
  for (const char* engine : {"--engine seq", "--engine vertex --ranks 2", "--engine mailbox --ranks 2"}) {
    const Outcome run = courier("run degree --graph " + (dir / "g.el").string() + " --verify --output " +
                                (dir / "d.txt").string() + " " + engine);
    ASSERT_EQ(run.status, 0) << engine << "\n" << run.output;
    EXPECT_EQ(read_text(dir / "d.txt"), "0 2\n1 1\n2 1\n") << engine;
  }
}

TEST(Cli, SpmvMultipliesByTheDocumentedVector) {
  const fs::path dir = scratch("spmv");
  {
    std::ofstream graph(dir / "g.el");
    graph << "0 1\n0 2\n1 2\n1 2\n";  // a parallel edge adds
  }
  // x[v] = 1 / (v + 1): y[0] = 1/2 + 1/3, y[1] = 2/3, y[2] = 0.
  for (const char* engine : {"--engine seq", "--engine mailbox --ranks 2"}) {
    const Outcome run = courier("run spmv --graph " + (dir / "g.el").string() + " --verify --output " +
                                (dir / "y.txt").string() + " " + engine);
    ASSERT_EQ(run.status, 0) << engine << "\n" << run.output;
    std::ifstream in(dir / "y.txt");
    std::vector<double> y;
    for (std::uint64_t v; in >> v;) {
      double value;
      in >> value;
      y.push_back(value);
    }
    ASSERT_EQ(y.size(), 3u) << engine;
    EXPECT_DOUBLE_EQ(y[0], 1.0 / 2 + 1.0 / 3) << engine;
    EXPECT_DOUBLE_EQ(y[1], 2.0 / 3) << engine;
    EXPECT_EQ(y[2], 0.0) << engine;
  }
}

TEST(Cli, MailboxEngineRejectsBadOptionsClearly) {
  struct Case {
    const char* arguments;
    const char* says;
  };
  for (const Case& c : {Case{"--routing bogus", "routing 'bogus'"}, Case{"--layout 3y3", "NODESxCORES"},
                        Case{"--ranks 4 --layout 3x3", "does not fit 4 ranks"}, Case{"--delegates lots", "--delegates lots"}}) {
    const Outcome run = courier(std::string("run cc --graph kron:6 --engine mailbox ") + c.arguments);
    EXPECT_NE(run.status, 0) << c.arguments;
    EXPECT_NE(run.output.find(c.says), std::string::npos) << c.arguments << "\n" << run.output;
  }
  const Outcome bfs = courier("run bfs --graph kron:6 --engine mailbox");
  EXPECT_NE(bfs.status, 0);
  EXPECT_NE(bfs.output.find("degree, cc and spmv"), std::string::npos) << bfs.output;
}

namespace {

std::size_t occurrences(const std::string& text, const std::string& what) {
  std::size_t count = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++count;
  return count;
}

TEST(Cli, ProgressOnlyWhenAskedInAPipeAndFromOneRank) {
  const fs::path dir = scratch("progress_lines");
  const std::string graph = (dir / "g.el").string();
  // Not a terminal and not asked: nothing but the summary.
  const Outcome plain = courier("generate kron --scale 10 -o " + graph);
  ASSERT_EQ(plain.status, 0) << plain.output;
  EXPECT_EQ(plain.output.find('%'), std::string::npos) << plain.output;
  // Asked: a line per tenth of the generation and of the writing, into the pipe.
  const Outcome generated = courier("generate kron --scale 10 -o " + graph + " --progress");
  ASSERT_EQ(generated.status, 0) << generated.output;
  EXPECT_NE(generated.output.find("generating kron:10: 100%"), std::string::npos) << generated.output;
  EXPECT_NE(generated.output.find("writing " + graph + ": 100%"), std::string::npos) << generated.output;
  // A run of three ranks: the partitioning steps once each (rank 0 speaks for all) and the load.
  const Outcome run = courier("run bfs --graph " + graph + " --ranks 3 --verify --progress");
  ASSERT_EQ(run.status, 0) << run.output;
  EXPECT_EQ(occurrences(run.output, "partitioning: shuffle"), 1u) << run.output;
  EXPECT_EQ(occurrences(run.output, "partitioning: local graph"), 1u) << run.output;
  EXPECT_NE(run.output.find("reading " + graph + ": 100%"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("Verification: PASS"), std::string::npos) << run.output;
}

TEST(Cli, QuietPrintsNothingButWritesWhatItIsAskedTo) {
  const fs::path dir = scratch("quiet");
  const fs::path graph = dir / "g.csr";
  const Outcome generated = courier("generate kron --scale 8 -o " + graph.string() + " --quiet");
  ASSERT_EQ(generated.status, 0) << generated.output;
  EXPECT_EQ(generated.output, "");
  ASSERT_TRUE(fs::exists(graph));
  const Outcome run =
      courier("run cc --graph " + graph.string() + " --ranks 2 --verify -q --json " + (dir / "r.json").string());
  ASSERT_EQ(run.status, 0) << run.output;
  EXPECT_EQ(run.output, "");
  EXPECT_EQ(nlohmann::json::parse(read_text(dir / "r.json"))["verification"], "PASS");
  const Outcome both = courier("run cc --graph kron:4 --quiet --progress");
  EXPECT_NE(both.status, 0);
  EXPECT_NE(both.output.find("--quiet excludes --progress"), std::string::npos) << both.output;
}

}  // namespace

// The la engine from the command line (issue 14): -v prints the tile map as paper 003's Fig. 3b
// draws it and where every rank's threads run; --json carries la's own statistics; --output writes
// the values seq writes (pagerank's within 1e-6 in L1). (cli.json_schema validates la's documents
// against docs/run.schema.json, with every pair `courier list` offers.)
TEST(Cli, TheLaEnginePrintsItsTileMapAndWritesItsStatsAndValues) {
  const fs::path dir = scratch("la");
  const std::string graph = " --graph kron:9";
  for (const char* algorithm : {"cc", "pagerank"}) {
    SCOPED_TRACE(algorithm);
    const std::string seq_out = (dir / "seq.txt").string(), la_out = (dir / "la.txt").string(),
                      json = (dir / "r.json").string();
    const Outcome seq = courier(std::string("run ") + algorithm + graph + " --engine seq --output " + seq_out);
    ASSERT_EQ(seq.status, 0) << seq.output;
    const Outcome la = courier(std::string("run ") + algorithm + graph +
                               " --engine la --ranks 2 --threads 2 -v --verify --output " + la_out + " --json " + json);
    ASSERT_EQ(la.status, 0) << la.output;
    EXPECT_NE(la.output.find("Verification: PASS"), std::string::npos) << la.output;
    EXPECT_NE(la.output.find("la engine (MPI*X, 2DT-Staggered), 2 ranks x 2 threads"), std::string::npos) << la.output;
    // 4 x 4 tiles: global thread g is thread g / 2 of rank g mod 2, and owns diagonal tile g.
    EXPECT_NE(la.output.find("la tile map (2DT-Staggered): 2 ranks x 2 units, 4 x 4 tiles of 128 vertices"),
              std::string::npos)
        << la.output;
    EXPECT_NE(la.output.find(" P0T0* P0T0  P0T0  P0T0 \n P1T0  P1T0* P1T0  P1T0 \n P0T1  P0T1  P0T1* P0T1 \n"
                             " P1T1  P1T1  P1T1  P1T1*\n"),
              std::string::npos)
        << la.output;
    EXPECT_NE(la.output.find("Placement:  rank 0: threads "), std::string::npos) << la.output;
    EXPECT_NE(la.output.find("Placement:  rank 1: threads "), std::string::npos) << la.output;
    const auto run = nlohmann::json::parse(read_text(json));
    EXPECT_EQ(run["engine"], "la");
    EXPECT_EQ(run["verification"], "PASS");
    const auto& stats = run["engine_stats"];
    EXPECT_EQ(stats["ranks"], 2);
    EXPECT_EQ(stats["threads"], 2);
    EXPECT_EQ(stats["grid"], 4);
    EXPECT_EQ(stats["nonzeros"], run["edges"]);
    EXPECT_GT(stats["tile_bytes"].get<std::uint64_t>(), 0u);
    EXPECT_GT(stats["iterations"].get<std::uint64_t>(), 0u);
    EXPECT_GT(stats["messages"].get<std::uint64_t>(), 0u);  // two ranks
    EXPECT_GT(stats["dense_segments"].get<std::uint64_t>() + stats["sparse_segments"].get<std::uint64_t>(), 0u);
    for (const char* phase : {"broadcast", "combine", "apply", "collective"})
      EXPECT_GE(stats["phase_seconds"][phase].get<double>(), 0.0) << phase;
    ASSERT_EQ(stats["placement"].size(), 2u);
    EXPECT_FALSE(stats.contains("replication"));  // the vertex engine's
    const auto expected = read_values(seq_out), got = read_values(la_out);
    ASSERT_EQ(expected.size(), 512u);
    ASSERT_EQ(got.size(), expected.size());
    double l1 = 0;
    for (std::size_t i = 0; i < got.size(); ++i) {
      EXPECT_EQ(got[i].first, expected[i].first);
      l1 += std::abs(got[i].second - expected[i].second);
    }
    if (std::string(algorithm) == "cc") {
      EXPECT_EQ(read_text(la_out), read_text(seq_out));
    } else {
      EXPECT_LT(l1, 1e-6);
    }
  }
  // The other placement and the MPI+X mode say so, in the description and the map.
  const Outcome cyclic = courier("run cc" + graph + " --engine la --ranks 2 --threads 2 --placement cyclic -v --verify");
  ASSERT_EQ(cyclic.status, 0) << cyclic.output;
  EXPECT_NE(cyclic.output.find("la tile map (2D-Cyclic): 2 ranks x 2 units"), std::string::npos) << cyclic.output;
  const Outcome processes =
      courier("run cc" + graph + " --engine la --ranks 2 --threads 2 --units processes -v --verify");
  ASSERT_EQ(processes.status, 0) << processes.output;
  EXPECT_NE(processes.output.find("la engine (MPI+X, 2D-Staggered), 2 ranks x 2 threads forked per tile"),
            std::string::npos)
      << processes.output;
  EXPECT_NE(processes.output.find("Verification: PASS"), std::string::npos) << processes.output;
}

// --ranks sockets: one rank per package of this machine, each verified.
TEST(Cli, TheLaEngineRunsARankPerSocket) {
  for (const char* algorithm : {"bfs", "pagerank"}) {
    const Outcome run = courier(std::string("run ") + algorithm + " --graph kron:9 --engine la --ranks sockets -v --verify");
    ASSERT_EQ(run.status, 0) << algorithm << "\n" << run.output;
    EXPECT_NE(run.output.find("la engine (MPI*X"), std::string::npos) << run.output;
    EXPECT_NE(run.output.find("Placement:  rank 0: threads "), std::string::npos) << run.output;
    EXPECT_NE(run.output.find("Verification: PASS"), std::string::npos) << run.output;
  }
}

// What the la engine cannot do fails before it runs, naming what can.
TEST(Cli, TheLaEngineRefusesWhatItCannotRunNamingTheAlternative) {
  const std::vector<std::pair<std::string, std::string>> cases{
      {"run kcore --graph kron:6 --engine la", "use --engine vertex or --engine seq"},
      {"run tc --graph kron:6 --engine la", "it runs bfs, sssp, cc, pagerank and spmv"},
      {"run cc --graph kron:6 --engine la --channel mpi-probe", "--channel is for vertex and dsl"},
      {"run cc --graph kron:6 --engine la --policy cvc", "--policy is for vertex"},
      {"run sssp --graph kron:6 --engine la", "generate with --weights, or use --engine seq"},
      {"run cc --graph kron:6 --engine la --endpoints mpi", "run under mpirun, or use --endpoints courier"},
      {"run cc --graph kron:6 --engine la --transport ofi", "run courier under mpirun (without a launcher"},
      {"run cc --graph kron:6 --engine la --units sideways", "choose one of threads, processes"},
      {"run cc --graph kron:6 --engine la --placement diagonal", "choose one of staggered, cyclic"},
  };
  for (const auto& [arguments, words] : cases) {
    const Outcome outcome = courier(arguments);
    EXPECT_NE(outcome.status, 0) << arguments << ": " << outcome.output;
    EXPECT_NE(outcome.output.find(words), std::string::npos) << arguments << ": " << outcome.output;
  }
}
