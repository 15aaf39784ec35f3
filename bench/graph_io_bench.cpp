// MB/s of writing and reading one random edge list as a text edge list, a binary edge list and a
// .csr file. Files are read right after being written, so they come from the page cache: this
// measures parsing and copying, not the disk.
//
//   graph_io_bench [--edges=N] [--dir=PATH] [benchmark flags, e.g. --benchmark_out=io.json]
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "courier/graph/io.hpp"

using namespace courier::graph;

namespace {

struct Settings {
  std::uint64_t edges = 16u << 20;
  std::string dir = std::filesystem::temp_directory_path().string();
};

// A small local generator (splitmix64), so the benchmark does not depend on graph/generate.
EdgeList random_edges(std::uint64_t count, bool weighted) {
  std::uint64_t state = 12345;
  const auto next = [&state] {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  };
  EdgeList list;
  list.num_vertices = std::max<std::uint64_t>(count / 16, 1);
  list.edges.resize(count);
  for (Edge& e : list.edges) e = {next() % list.num_vertices, next() % list.num_vertices};
  if (weighted) {
    std::vector<std::uint32_t> weights(count);
    for (auto& w : weights) w = static_cast<std::uint32_t>(next() % 1000 + 1);
    list.weights = std::move(weights);
  }
  return list;
}

void report_bytes(benchmark::State& state, const std::string& path, const EdgeList& list) {
  const auto bytes = static_cast<std::int64_t>(std::filesystem::file_size(path));
  state.SetBytesProcessed(bytes * state.iterations());
  state.counters["file_MB"] = static_cast<double>(bytes) / 1e6;
  state.counters["Medges/s"] = benchmark::Counter(static_cast<double>(list.edges.size()) * state.iterations() / 1e6,
                                                  benchmark::Counter::kIsRate);
}

void register_format(const Settings& settings, const std::string& name, const EdgeList& list,
                     const ReadOptions& read_options) {
  const std::string path = settings.dir + "/courier_io_bench." + name;
  // A .csr is written from a Csr built beforehand: the sort into rows is not the writer's work.
  const auto csr = name.ends_with("csr") ? std::make_shared<const Csr>(build_csr(list)) : nullptr;
  benchmark::RegisterBenchmark(("write/" + name).c_str(), [=, &list](benchmark::State& state) {
    for (auto _ : state) {
      if (csr)
        write_csr(path, *csr);
      else
        write_edge_list(path, list);
    }
    report_bytes(state, path, list);
  })->Unit(benchmark::kMillisecond)->UseRealTime();
  benchmark::RegisterBenchmark(("read/" + name).c_str(), [=, &list](benchmark::State& state) {
    if (!std::filesystem::exists(path)) write_edge_list(path, list);
    for (auto _ : state) {
      if (name.ends_with("csr")) {
        const Csr csr = read_csr(path, read_options);
        benchmark::DoNotOptimize(csr.offsets().data());
      } else {
        const EdgeList back = read_edge_list(path, read_options);
        benchmark::DoNotOptimize(back.edges.data());
      }
    }
    report_bytes(state, path, list);
  })->Unit(benchmark::kMillisecond)->UseRealTime();
}

}  // namespace

int main(int argc, char** argv) {
  Settings settings;
  std::vector<char*> rest;
  for (int i = 0; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg.starts_with("--edges=")) settings.edges = std::strtoull(argv[i] + 8, nullptr, 10);
    else if (arg.starts_with("--dir=")) settings.dir = std::string(arg.substr(6));
    else rest.push_back(argv[i]);
  }
  int rest_count = static_cast<int>(rest.size());
  benchmark::Initialize(&rest_count, rest.data());
  benchmark::AddCustomContext("edges", std::to_string(settings.edges));

  static const EdgeList plain = random_edges(settings.edges, false);
  static const EdgeList weighted = random_edges(settings.edges, true);
  ReadOptions text, text_one_thread, binary, binary_weighted, csr, csr_unverified;
  text_one_thread.threads = 1;
  binary.binary_id_bytes = 8;
  binary_weighted.binary_id_bytes = 8;
  binary_weighted.binary_weight = WeightType::u32;
  csr_unverified.verify_checksum = false;
  register_format(settings, "el", plain, text);
  register_format(settings, "1thread.el", plain, text_one_thread);
  register_format(settings, "wel", weighted, text);
  register_format(settings, "bel", plain, binary);
  register_format(settings, "weighted.bel", weighted, binary_weighted);
  register_format(settings, "csr", plain, csr);
  register_format(settings, "unverified.csr", plain, csr_unverified);  // mmap and structure checks only
  register_format(settings, "weighted.csr", weighted, csr);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  for (const char* name : {"el", "1thread.el", "wel", "bel", "weighted.bel", "csr", "unverified.csr", "weighted.csr"})
    std::filesystem::remove(settings.dir + "/courier_io_bench." + name);
  return 0;
}
