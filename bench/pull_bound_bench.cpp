// The la engine's pull kernel (la::pull_sum, pagerank's Combine) on random tiles of this
// machine's caches: nanoseconds an edge against the width of the x segment it reads at random
// and the edges a row has. A urand graph's pagerank reads x at random, so this is the bound of
// its Combine: la at 1x2 reads 2 MiB segments (2^19 float columns, 8 edges a row and tile on
// urand:20), the vertex engine's pull the whole 4 MiB x (2^20 columns, 16 edges a row); a finer
// grid reads narrower segments with fewer edges a row. Each thread sums its own tile of 2^22
// random entries, as the threads of one rank do.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <random>
#include <vector>

#include "courier/la/pull.hpp"
#include "courier/la/semiring.hpp"
#include "courier/la/tcsc.hpp"

namespace {

using courier::la::PlusSecondFloat;
using courier::la::Tcsc;
using courier::la::TcscBuilder;

constexpr std::uint64_t kEntries = std::uint64_t{1} << 22;

// A tile kept by rows: kEntries / per_row rows, each with per_row columns drawn from `width`.
Tcsc random_rows(std::uint32_t width, std::uint32_t per_row, std::uint64_t seed) {
  const auto rows = static_cast<std::uint32_t>(kEntries / per_row);
  std::mt19937_64 random(seed);
  std::vector<std::uint32_t> column(kEntries);
  for (auto& c : column) c = static_cast<std::uint32_t>(random() % width);
  TcscBuilder builder(rows, false);  // the turned tile: its "columns" are the tile's rows
  for (std::uint64_t e = 0; e < kEntries; ++e) builder.count(static_cast<std::uint32_t>(e / per_row));
  builder.allocate();
  for (std::uint64_t e = 0; e < kEntries; ++e) builder.place(column[e], static_cast<std::uint32_t>(e / per_row), 1);
  return builder.finish();
}

// Args: x segment width in columns, edges a row.
void PullSum(benchmark::State& state) {
  const auto width = static_cast<std::uint32_t>(state.range(0));
  const auto per_row = static_cast<std::uint32_t>(state.range(1));
  const Tcsc tile = random_rows(width, per_row, 1 + static_cast<std::uint64_t>(state.thread_index()));
  std::vector<float> x(width, 1.0f / static_cast<float>(width));
  std::vector<double> y(kEntries / per_row, 0);
  for (auto _ : state) {
    courier::la::pull_sum<PlusSecondFloat>(tile, x, y);
    benchmark::DoNotOptimize(y.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(kEntries) * state.iterations());  // edges
  state.counters["x_MiB"] =
      benchmark::Counter(static_cast<double>(width) * sizeof(float) / (1 << 20), benchmark::Counter::kAvgThreads);
}

void Shapes(benchmark::internal::Benchmark* b) {
  for (std::int64_t width : {1 << 16, 1 << 17, 1 << 18, 1 << 19, 1 << 20, 1 << 21})
    for (std::int64_t per_row : {2, 4, 8, 16}) b->Args({width, per_row});
}

BENCHMARK(PullSum)->Apply(Shapes)->Threads(1)->Threads(2)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
