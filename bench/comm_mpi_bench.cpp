// comm_mpi_bench: the baselines the comm runtime is measured against (paper 000, section V):
// OSU-style latency (8 B .. 1 MiB ping-pong) and message rate (windows of 64 messages of 64 B,
// 1..4 threads per rank) for plain MPI with and without probing and for the raw transports.
// Run under mpirun -np 2 (ranks beyond 2 only take part in the collectives); rank 0 prints a
// table and writes JSON.
//
//   mpirun -np 2 --allow-run-as-root --oversubscribe --bind-to none build/bench/comm_mpi_bench
#include <fmt/format.h>
#include <mpi.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <thread>

#include "comm/variant.hpp"
#include "command_line.hpp"
#include "courier/net/mpi_environment.hpp"

#ifndef COURIER_COMMIT
#define COURIER_COMMIT "unknown"
#endif

namespace courier::bench {
namespace {

struct Row {
  std::string variant;
  std::string measure;  // "latency_us" or "messages_per_s"
  std::size_t bytes;
  int threads;
  double result;
};

std::string machine() {
  char host[256] = {};
  gethostname(host, sizeof host - 1);
  char library[MPI_MAX_LIBRARY_VERSION_STRING] = {};
  int length = 0;
  MPI_Get_library_version(library, &length);
  std::string mpi(library, static_cast<std::size_t>(length));
  mpi = mpi.substr(0, mpi.find_first_of(",\n"));
  return fmt::format("{} ({} hardware threads, {})", host, std::thread::hardware_concurrency(), mpi);
}

std::string commit() {
  const char* from_env = std::getenv("COURIER_COMMIT");
  return from_env && *from_env ? from_env : COURIER_COMMIT;
}

void print_row(const Row& row) {
  fmt::print("{:<14} {:<15} {:>9} {:>8} {:>14.2f}\n", row.variant, row.measure, row.bytes,
             row.threads, row.result);
  std::fflush(stdout);
}

bool selected(const std::string& name, const std::vector<std::string>& only) {
  return only.empty() || std::find(only.begin(), only.end(), name) != only.end();
}

}  // namespace
}  // namespace courier::bench

int main(int argc, char** argv) {
  using namespace courier::bench;
  courier::net::MpiEnvironment mpi(&argc, &argv);
  courier::bench::CommandLine command_line(
      "Latency and message rate of plain MPI and the raw transports (run under mpirun -np 2)");
  std::string json_path = "comm_mpi_bench.json";
  bool quick = false;
  std::vector<std::string> only;
  int max_threads = 4;
  std::size_t max_bytes = 1u << 20;
  int repeats = 3;
  command_line.add("--json", json_path, "Where rank 0 writes the results");
  command_line.flag("--quick", quick, "A tenth of the iterations (a smoke test, not a measurement)");
  command_line.add("--variant", only, "Run only these variants (default: all)");
  command_line.add("--max-threads", max_threads, "Message rate with 1..N threads per rank (0: no rate)").range(0, 16);
  command_line.add("--max-bytes", max_bytes, "Latency from 8 B up to this size (0: no latency)")
      .range(std::size_t{0}, std::size_t{1} << 20);
  command_line.add("--repeats", repeats, "Report the median of this many runs").range(1, 99);
  if (const auto status = command_line.parse(argc, argv)) return *status;

  Setup setup;
  setup.rank = mpi.world_rank();
  setup.ranks = mpi.world_size();
  setup.scale = quick ? 0.1 : 1.0;
  if (setup.ranks < 2) {
    std::cerr << "comm_mpi_bench: needs at least 2 ranks; run it under mpirun -np 2\n";
    return 1;
  }
  if (max_threads > 1 && !mpi.thread_multiple()) {
    if (setup.rank == 0) std::cerr << "comm_mpi_bench: MPI granted only " << mpi.thread_level_name()
                                    << "; measuring the message rate with 1 thread only\n";
    max_threads = 1;
  }

  if (setup.rank == 0) {
    fmt::print("comm_mpi_bench on {}, commit {}, {} ranks\n", machine(), commit(), setup.ranks);
    fmt::print("{:<14} {:<15} {:>9} {:>8} {:>14}\n", "variant", "measure", "bytes", "threads",
               "result");
  }
  std::vector<Row> rows;
  {
    std::vector<Variant> variants;
    for (Variant& variant : raw_mpi_variants()) variants.push_back(std::move(variant));
    for (Variant& variant : device_variants()) variants.push_back(std::move(variant));
    for (Variant& variant : runtime_variants()) variants.push_back(std::move(variant));
    std::erase_if(variants, [&](const Variant& v) { return !selected(v.name, only); });
    // Each point runs the variants in turn, `repeats` times (A B C A B C ...), and reports each
    // variant's median, so that the machine's slow moments fall on every variant alike.
    auto measure = [&](const std::string& what, std::size_t bytes, int threads, auto run) {
      std::vector<std::vector<double>> results(variants.size());
      for (int r = 0; r < repeats; ++r) {
        for (std::size_t v = 0; v < variants.size(); ++v) results[v].push_back(run(variants[v]));
      }
      for (std::size_t v = 0; v < variants.size(); ++v) {
        std::sort(results[v].begin(), results[v].end());
        rows.push_back({variants[v].name, what, bytes, threads, results[v][results[v].size() / 2]});
        if (setup.rank == 0) print_row(rows.back());
      }
    };
    for (std::size_t bytes = 8; bytes <= max_bytes; bytes *= 4) {
      measure("latency_us", bytes, 1, [&](const Variant& v) { return v.latency_us(setup, bytes); });
      if (bytes == (1u << 19) && max_bytes == (1u << 20)) bytes = (1u << 20) / 4;  // end on exactly 1 MiB
    }
    for (int threads = 1; threads <= max_threads; ++threads) {
      measure("messages_per_s", rate_message_bytes, threads,
              [&](const Variant& v) { return v.messages_per_second(setup, threads); });
    }
  }  // devices are destroyed here, before MPI is finalised

  if (setup.rank != 0) return 0;
  const std::string where = machine();
  const std::string at = commit();
  nlohmann::json results = nlohmann::json::array();
  for (const Row& row : rows) {
    results.push_back({{"machine", where}, {"commit", at}, {"ranks", setup.ranks},
                       {"variant", row.variant}, {"measure", row.measure}, {"size", row.bytes},
                       {"threads", row.threads}, {"repeats", repeats}, {"result", row.result}});
  }
  std::ofstream(json_path) << results.dump(2) << "\n";
  fmt::print("wrote {}\n", json_path);
  return 0;
}
