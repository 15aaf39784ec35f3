// The graph layer's throughput on a Graph500 Kronecker graph: generating kron:SCALE (1 and 2
// threads), then writing and reading it as a text edge list, a binary edge list and a .csr file.
// Files are read right after being written, so they come from the page cache: this measures
// parsing and copying, not the disk.
//
//   graph_io_bench [--scale=S (22)] [--dir=PATH] [benchmark flags, e.g. --benchmark_out=io.json]
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "courier/graph/generate.hpp"
#include "courier/graph/io.hpp"

using namespace courier::graph;

namespace {

struct Settings {
  int scale = 22;
  std::string dir = std::filesystem::temp_directory_path().string();
};

GeneratorOptions kron(int scale, bool weighted, unsigned threads = 0) {
  GeneratorOptions options;
  options.kind = Generator::kronecker;
  options.scale = scale;
  options.weights = weighted;
  options.threads = threads;
  return options;
}

void register_generation(int scale, unsigned threads) {
  benchmark::RegisterBenchmark(("generate/kron/threads:" + std::to_string(threads)).c_str(),
                               [=](benchmark::State& state) {
                                 edge_t edges = 0;
                                 for (auto _ : state) {
                                   const EdgeList list = generate(kron(scale, false, threads));
                                   edges = list.edges.size();
                                   benchmark::DoNotOptimize(list.edges.data());
                                 }
                                 state.counters["Medges/s"] = benchmark::Counter(
                                     static_cast<double>(edges) * static_cast<double>(state.iterations()) / 1e6,
                                     benchmark::Counter::kIsRate);
                               })
      ->Unit(benchmark::kMillisecond)
      ->UseRealTime();
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
    if (arg.starts_with("--scale=")) settings.scale = std::atoi(argv[i] + 8);
    else if (arg.starts_with("--dir=")) settings.dir = std::string(arg.substr(6));
    else rest.push_back(argv[i]);
  }
  int rest_count = static_cast<int>(rest.size());
  benchmark::Initialize(&rest_count, rest.data());
  benchmark::AddCustomContext("graph", "kron:" + std::to_string(settings.scale));
  benchmark::AddCustomContext("commit", COURIER_COMMIT);

  register_generation(settings.scale, 1);
  register_generation(settings.scale, 2);
  static const EdgeList plain = generate(kron(settings.scale, false));
  static const EdgeList weighted = generate(kron(settings.scale, true));
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
