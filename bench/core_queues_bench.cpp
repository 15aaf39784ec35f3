// Microbenchmarks of core's concurrent pieces: the fetch-and-add MPMC queue, the SPSC ring and
// the packet pool (thread cache hit, and with the cache off: every packet through the queue).
#include <benchmark/benchmark.h>

#include <cstddef>

#include "courier/core/mpmc_queue.hpp"
#include "courier/core/packet_pool.hpp"
#include "courier/core/spsc_ring.hpp"

namespace {

// Each thread pushes one item and pops one: the queue's round trip under contention.
void BM_MpmcPushPop(benchmark::State& state) {
  static courier::MpmcQueue<std::size_t>* queue = nullptr;
  if (state.thread_index() == 0) queue = new courier::MpmcQueue<std::size_t>(1024);
  // Google Benchmark starts all threads' loops together after setup.
  std::size_t value = 0;
  for (auto _ : state) {
    while (!queue->try_push(value)) {
    }
    while (!queue->try_pop(value)) {
    }
    benchmark::DoNotOptimize(value);
  }
  state.SetItemsProcessed(state.iterations());
  if (state.thread_index() == 0) {
    delete queue;
    queue = nullptr;
  }
}
BENCHMARK(BM_MpmcPushPop)->Threads(1)->Threads(2)->UseRealTime();

void BM_SpscPushPop(benchmark::State& state) {
  courier::SpscRing<std::size_t> ring(1024);
  std::size_t value = 0;
  for (auto _ : state) {
    ring.try_push(value);
    ring.try_pop(value);
    benchmark::DoNotOptimize(value);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_SpscPushPop);

void BM_PoolAcquireRelease(benchmark::State& state) {
  courier::PacketPool pool(4096, 256, state.range(0) ? -1 : 0);
  for (auto _ : state) {
    std::byte* packet = pool.try_acquire();
    benchmark::DoNotOptimize(packet);
    pool.release(packet);
  }
  state.SetItemsProcessed(state.iterations());
  state.SetLabel(state.range(0) ? "thread cache" : "shared queue only");
}
BENCHMARK(BM_PoolAcquireRelease)->Arg(1)->Arg(0);

}  // namespace

BENCHMARK_MAIN();
