// courier run ALGO --graph GRAPH [--source V] [--output FILE] [--json FILE] [--verify]
#include <fmt/format.h>

#include "commands.hpp"
#include "courier/core/atomic_file.hpp"
#include "courier/core/error.hpp"
#include "courier/core/timer.hpp"
#include "courier/dist/distributed_load.hpp"
#include "courier/sync/progress_mode.hpp"
#include "graph_options.hpp"
#include "launcher.hpp"
#include "mailbox_engine.hpp"
#include "run_result.hpp"
#include "sequential_engine.hpp"
#include "vertex_engine.hpp"

namespace courier::cli {

namespace {

// "lci (progress auto: explicit)": the mode asked for and, for auto, what it chose on this node.
std::string lci_line(const std::string& progress, bool progress_thread) {
  if (progress != "auto") return "lci (progress " + progress + ")";
  return std::string("lci (progress auto: ") + (progress_thread ? "thread" : "explicit") + ")";
}

struct Options {
  std::string algorithm;
  std::string graph;
  std::string engine = "vertex";
  VertexEngineOptions vertex;
  MailboxEngineOptions mailbox;
  std::string policy = "oec";
  graph::LoadOptions load;
  RunOptions run;
  std::string output;
  std::string json;
  bool verify = false;
};

void write_json(const Options& o, graph::vertex_t vertices, std::uint64_t edges, const RunResult& result,
                const nlohmann::json& times, const nlohmann::json& engine_stats) {
  nlohmann::json doc = {
      {"command", "run"},
      {"algorithm", o.algorithm},
      {"graph", o.graph},
      {"engine", o.engine},
      {"vertices", vertices},
      {"edges", edges},
      {"summary", result.summary},
      {"times", times},
      {"engine_stats", engine_stats},
      {"options",
       {{"symmetrize", o.load.symmetrize},
        {"drop_self_loops", o.load.drop_self_loops},
        {"dedupe", o.load.dedupe},
        {"weights", o.load.weights},
        {"seed", o.load.seed},
        {"base", o.load.read.base},
        {"damping", o.run.damping},
        {"tolerance", o.run.tolerance},
        {"max_iterations", o.run.max_iterations},
        {"ranks", o.vertex.ranks},
        {"threads", o.vertex.threads},
        {"policy", o.policy},
        {"comm", o.vertex.comm},
        {"progress", o.vertex.progress}}},
  };
  if (o.engine == "mailbox") {
    doc["options"]["ranks"] = engine_stats["ranks"];
    doc["options"]["routing"] = o.mailbox.routing;
    doc["options"]["layout"] = o.mailbox.layout;
    doc["options"]["capacity"] = o.mailbox.capacity;
    doc["options"]["delegates"] = o.mailbox.delegates;
  }
  if (o.verify) doc["verification"] = result.mismatch.empty() ? "PASS" : "FAIL";
  AtomicFile file(o.json);
  file.write(doc.dump(2) + "\n");
  file.commit();
}

// -v: the vertex engine's rounds, times and buffers the largest of any rank, messages and bytes of all.
void print_rounds(const nlohmann::json& rounds) {
  fmt::print("Rounds:     {:>5} {:>12} {:>11} {:>11} {:>9} {:>12} {:>12}\n", "round", "active", "compute s",
             "comm s", "messages", "bytes", "buffer peak");
  std::size_t i = 0;
  for (const nlohmann::json& r : rounds)
    fmt::print("            {:>5} {:>12} {:>11.6f} {:>11.6f} {:>9} {:>12} {:>12}\n", i++,
               r["active"].get<std::uint64_t>(), r["compute_seconds"].get<double>(), r["sync_seconds"].get<double>(),
               r["messages"].get<std::uint64_t>(), r["bytes"].get<std::uint64_t>(),
               r["buffer_bytes_peak"].get<std::uint64_t>());
}

int run_on(const Options& o, const MpiSession* mpi) {
  const bool speaker = !mpi || mpi->rank() == 0;
  if (o.engine == "mailbox" && mpi) {
    // Only now is the rank count known; every rank reaches the same verdict.
    try {
      check_mailbox_options(o.algorithm, o.mailbox, mpi->ranks());
      check_mailbox_load(o.load);
    } catch (const InputError& e) {
      throw dist::LoadError(e.what());  // every rank agrees: rank 0 speaks
    }
  }
  if (speaker) announce("reading", o.graph);
  Timer timer;
  const bool sequential = o.engine == "seq";
  graph::Csr csr;  // the whole graph: the seq engine's input, and --verify's on rank 0
  RunResult result;
  nlohmann::json engine_stats = nlohmann::json::object();
  nlohmann::json times;
  std::string engine_line = "seq engine";
  graph::vertex_t vertices = 0;
  std::uint64_t edges = 0;
  if (sequential) {
    csr = graph::load_graph(o.graph, o.load);
    times["load"] = timer.lap();
    vertices = csr.num_vertices();
    edges = csr.num_edges();
    result = run_sequential(o.algorithm, csr, o.run);
    times["run"] = timer.lap();
  } else if (o.engine == "mailbox") {
    // Each rank reads its own part, as for the vertex engine.
    MailboxRun run = run_mailbox(o.algorithm, o.graph, o.load, o.mailbox, mpi);
    times["load"] = run.load_seconds;
    vertices = run.vertices;
    edges = run.edges;
    result = std::move(run.result);
    engine_stats = std::move(run.stats);
    times["setup"] = run.setup_seconds;
    times["run"] = run.run_seconds;
    times["total"] = run.total_seconds;
    timer.lap();
    engine_line = run.description;
  } else {
    // Distributed loading: each rank reads its own part; no whole graph anywhere.
    VertexEngineOptions vertex = o.vertex;
    vertex.policy = dist::parse_policy(o.policy);
#ifdef COURIER_HAVE_MPI
    if (mpi) vertex.ranks = mpi->ranks();
    VertexRun run = mpi ? run_vertex_mpi(o.algorithm, o.graph, o.load, o.run, vertex, *mpi)
                        : run_vertex(o.algorithm, o.graph, o.load, o.run, vertex);
#else
    VertexRun run = run_vertex(o.algorithm, o.graph, o.load, o.run, vertex);
#endif
    result = std::move(run.result);
    engine_stats = std::move(run.stats);
    engine_stats["load_seconds"] = run.load_seconds;
    engine_stats["partition_seconds"] = run.partition_seconds;
    if (vertex.comm == "lci") engine_stats["progress_thread"] = run.progress_thread;
    times["load"] = run.load_seconds;
    times["partition"] = run.partition_seconds;
    times["run"] = run.run_seconds;
    vertices = run.vertices;
    edges = run.edges;
    timer.lap();
    engine_line = fmt::format("vertex engine, {} ranks{} x {} threads, policy {}, comm {}", vertex.ranks,
                              mpi ? " (MPI)" : "", vertex.threads, o.policy,
                              vertex.comm == "lci" ? lci_line(vertex.progress, run.progress_thread) : vertex.comm);
  }
  if (!speaker) return 0;  // rank 0 has the result and speaks for the run

  fmt::print("Algorithm:  {} ({})\n", o.algorithm, engine_line);
  fmt::print("Graph:      {} ({} vertices, {} edges)\n", o.graph, vertices, edges);
  for (const auto& [key, value] : result.lines) fmt::print("{:<11} {}\n", key + ":", value);
  if (sequential) {
    fmt::print("Time:       {:.6f} s (load {:.3f} s)\n", times["run"].get<double>(), times["load"].get<double>());
  } else if (o.engine == "mailbox") {
    fmt::print("Time:       {:.6f} s (load {:.3f} s, setup {:.3f} s, all with gathers {:.3f} s)\n",
               times["run"].get<double>(), times["load"].get<double>(), times["setup"].get<double>(),
               times["total"].get<double>());
    print_mailbox_summary(engine_stats);
  } else {
    fmt::print("Time:       {:.6f} s (load {:.3f} s, partition {:.3f} s)\n", times["run"].get<double>(),
               times["load"].get<double>(), times["partition"].get<double>());
    fmt::print("Engine:     {} rounds, compute {:.6f} s, communication {:.6f} s, {} messages, {} bytes\n",
               engine_stats["rounds"].get<std::size_t>(), engine_stats["compute_seconds"].get<double>(),
               engine_stats["sync_seconds"].get<double>(), engine_stats["messages"].get<std::uint64_t>(),
               engine_stats["bytes"].get<std::uint64_t>());
    fmt::print("Buffers:    peak {} bytes on the busiest rank, layer set-up {:.6f} s\n",
               engine_stats["buffer_bytes_peak"].get<std::uint64_t>(), engine_stats["setup_seconds"].get<double>());
    fmt::print("Partition:  replication {:.3f} proxies per vertex, edge imbalance {:.3f}\n",
               engine_stats["replication"].get<double>(), engine_stats["edge_imbalance"].get<double>());
    if (o.mailbox.verbose) print_rounds(engine_stats["per_round"]);  // -v is shared with the mailbox engine
  }

  if (o.verify) {
    // Checking needs the whole graph: only here, only on rank 0, only when asked.
    if (!sequential) csr = graph::load_graph(o.graph, o.load);
    verify_result(o.algorithm, csr, o.run, sequential, result);
    times["verify"] = timer.lap();
    if (result.mismatch.empty())
      fmt::print("Verification: PASS ({})\n", result.verifier);
    else
      fmt::print("Verification: FAIL ({})\n{}", result.verifier, result.mismatch);
  }
  if (!o.output.empty()) write_vertex_values(o.output, result.values);
  if (!o.json.empty()) write_json(o, vertices, edges, result, times, engine_stats);
  return result.mismatch.empty() ? 0 : 2;
}

int run(const Options& o) {
  if (o.engine == "mailbox") {
    check_mailbox_options(o.algorithm, o.mailbox, launched_by_mpi() ? 0 : o.mailbox.ranks);
    check_mailbox_load(o.load);
  }
  if (o.engine == "seq" || !launched_by_mpi()) return run_on(o, nullptr);
  MpiSession mpi;
  try {
    return run_on(o, &mpi);
  } catch (const dist::LoadError& failure) {
    // Every rank failed alike (a bad input): rank 0 speaks; MPI finalises normally.
    if (mpi.rank() == 0) fmt::print(stderr, "courier: error: {}\n", failure.what());
    return 1;
  } catch (const std::exception& e) {
    // One rank failed while others may wait for it in a collective: end the whole run.
    fmt::print(stderr, "courier: error (rank {} of {}): {}\n", mpi.rank(), mpi.ranks(), e.what());
    std::fflush(stderr);
    abort_run_if_distributed();
    return 1;
  }
}

}  // namespace

void add_run_command(CLI::App& app) {
  auto options = std::make_shared<Options>();
  auto* command = app.add_subcommand(
      "run",
      "Run an algorithm on a graph and summarise the result.\n"
      "Example: courier run bfs --graph kron:16 --ranks 4 --policy cvc --verify\n"
      "         courier run cc --graph kron:16 --engine mailbox --ranks 8 --routing nlnr --layout 4x2 --verify\n"
      "         courier run sssp --graph rome99.gr --source 0 --output dist.txt");
  command->add_option("algorithm", options->algorithm,
                      "bfs, sssp, cc, pagerank, tc, kcore, degree or spmv (y = A x, x[v] = 1 / (v + 1))")
      ->required()
      ->check(CLI::IsMember(algorithm_names()));
  command->add_option("-g,--graph", options->graph, "Graph file or generator spec (kron:16, urand:16)")->required();
  command->add_option("--engine", options->engine,
                      "vertex: the distributed vertex-program engine; mailbox: paper 001's asynchronous "
                      "mailbox (degree, cc, spmv); seq: the sequential reference")
      ->check(CLI::IsMember({"vertex", "mailbox", "seq"}))
      ->capture_default_str();
  command->add_option("--ranks", options->vertex.ranks,
                      "vertex, mailbox: ranks (threads of this process, local transport); each rank reads its own "
                      "part of the graph (the mailbox engine rejects --dedupe, which needs an edge's copies together)")
      ->check(CLI::Range(1, 1024))
      ->capture_default_str();
  command->add_option("--threads", options->vertex.threads, "vertex: compute threads per rank")
      ->check(CLI::Range(1, 1024))
      ->capture_default_str();
  command->add_flag("!--no-pin", options->vertex.pin, "vertex: do not pin each rank's threads to processing units");
  command->add_option("--policy", options->policy, "vertex: partition policy (oec, iec, cvc, hash)")
      ->check(CLI::IsMember({"oec", "iec", "cvc", "hash"}))
      ->capture_default_str();
  command->add_option("--comm", options->vertex.comm, "vertex: communication layer (lci, mpi-probe, mpi-rma)")
      ->check(CLI::IsMember({"lci", "mpi-probe", "mpi-rma"}))
      ->capture_default_str();
  command
      ->add_option("--progress", options->vertex.progress,
                   "vertex, --comm lci: who drives each rank's communication runtime: auto (a progress thread "
                   "only when ranks on the node x --threads leave a hardware thread spare), thread (always a "
                   "progress thread), explicit (the threads that wait for messages)")
      ->check([](const std::string& value) {
        try {
          sync::parse_progress_mode(value);
          return std::string();
        } catch (const InputError& error) {
          return std::string(error.what());
        }
      })
      ->capture_default_str();
  add_mailbox_options(*command, options->mailbox);
  add_graph_options(*command, options->load);
  command->add_option("-s,--source", options->run.source, "bfs, sssp: the source (default: largest out-degree)");
  command->add_option("--damping", options->run.damping, "pagerank: damping factor")->capture_default_str()
      ->check(CLI::Range(0.0, 1.0));
  command->add_option("--tolerance", options->run.tolerance, "pagerank: stop below this L1 change")->capture_default_str();
  command->add_option("--iterations", options->run.max_iterations, "pagerank: at most this many iterations")
      ->capture_default_str();
  command->add_option("-o,--output", options->output, "Write 'vertex value' lines ('inf' = unreached)");
  command->add_option("--json", options->json, "Write the summary, times and options as JSON");
  command->add_flag("--verify", options->verify,
                    "Check the result; exit 2 on a mismatch. The vertex and mailbox engines load the graph in parts "
                    "(no rank holds all of it); --verify makes rank 0 load the whole graph too, to check against");
  command->callback([options] {
    options->mailbox.ranks = options->vertex.ranks;
    const int status = run(*options);
    if (status != 0) throw CLI::RuntimeError(status);
  });
}

}  // namespace courier::cli
