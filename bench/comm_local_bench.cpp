// The runtime on the local transport (2 ranks as threads of this process):
//   MessageRate/T/S  64 B messages, T sending+receiving threads per rank (each with its own
//                    endpoint), S = 1 with the progress server, 0 with explicit progress().
//   Latency/B/S      ping-pong of B bytes between rank 0 and rank 1; one-way time per message.
//   PathLength/B     one thread plays both ranks (explicit progress, no thread hand-off): the
//                    software path of one round trip alone, deterministic, so that
//                    `valgrind --tool=callgrind ... --benchmark_filter=PathLength/8` counts
//                    instructions per round trip repeatably even on a busy machine.
// Run: build/bench/comm_local_bench [--benchmark_out=FILE --benchmark_out_format=json]
#include <benchmark/benchmark.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <span>
#include <thread>
#include <vector>

#include "courier/comm/runtime.hpp"
#include "courier/core/backoff.hpp"
#include "courier/net/local.hpp"

namespace comm = courier::comm;
namespace net = courier::net;
using Clock = std::chrono::steady_clock;

namespace {

void BM_MessageRate(benchmark::State& state) {
  const int threads = static_cast<int>(state.range(0));
  const bool server = state.range(1) != 0;
  constexpr int per_thread = 50000;
  const std::vector<std::byte> message(64, std::byte{1});
  double seconds = 0;
  std::uint64_t messages = 0;
  for (auto _ : state) {
    comm::RuntimeOptions options;
    options.progress_thread = server;
    net::LocalFabric fabric(2);
    std::vector<std::unique_ptr<comm::Runtime>> rts;
    std::vector<std::vector<comm::Endpoint*>> eps(2);
    for (courier::rank_t r = 0; r < 2; ++r) {
      rts.push_back(std::make_unique<comm::Runtime>(fabric.device(r), options));
      eps[r].push_back(&rts[r]->endpoint());
      for (int t = 1; t < threads; ++t) eps[r].push_back(&rts[r]->create_endpoint({}));
    }
    std::atomic<int> ready{0};
    std::atomic<bool> go{false};
    std::atomic<int> finished{0};
    std::vector<std::thread> workers;
    for (courier::rank_t r = 0; r < 2; ++r) {
      for (int t = 0; t < threads; ++t) {
        workers.emplace_back([&, r, t] {
          comm::Runtime& rt = *rts[r];
          comm::Endpoint& ep = *eps[r][t];
          ready.fetch_add(1);
          while (!go.load()) std::this_thread::yield();
          int sent = 0, received = 0;
          courier::Backoff backoff;
          while (sent < per_thread || received < per_thread) {
            bool worked = false;
            while (sent < per_thread && ep.send(1 - r, 0, message) == comm::Post::done) {
              ++sent;
              worked = true;
            }
            comm::Completion c;
            while (ep.poll(c)) {
              ep.release(c);
              ++received;
              worked = true;
            }
            if (!server) worked = rt.progress() || worked;
            if (worked) {
              backoff.reset();
            } else {
              backoff.pause();
            }
          }
          // With explicit progress, a rank's frames move only while someone progresses it:
          // keep progressing until every thread of both ranks is done.
          finished.fetch_add(1);
          while (!server && finished.load() < 2 * threads) {
            if (!rt.progress()) backoff.pause();
          }
        });
      }
    }
    while (ready.load() < 2 * threads) std::this_thread::yield();
    const auto start = Clock::now();
    go.store(true);
    for (auto& w : workers) w.join();
    const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
    state.SetIterationTime(elapsed);
    seconds += elapsed;
    messages += static_cast<std::uint64_t>(2 * threads * per_thread);
    std::thread other([&] { rts[1]->shutdown(); });
    rts[0]->shutdown();
    other.join();
  }
  state.counters["Mmsg/s"] = static_cast<double>(messages) / seconds / 1e6;
  state.SetLabel(server ? "progress server" : "explicit progress");
}
BENCHMARK(BM_MessageRate)
    ->ArgsProduct({{1, 2}, {1, 0}})
    ->ArgNames({"threads", "server"})
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond)
    ->Iterations(5);

void BM_Latency(benchmark::State& state) {
  const auto bytes = static_cast<std::size_t>(state.range(0));
  const bool server = state.range(1) != 0;
  const int round_trips = bytes >= (256 << 10) ? 50 : bytes >= (16 << 10) ? 500 : 5000;
  const std::vector<std::byte> message(bytes, std::byte{2});
  double seconds = 0;
  std::uint64_t messages = 0;
  for (auto _ : state) {
    comm::RuntimeOptions options;
    options.progress_thread = server;
    net::LocalFabric fabric(2);
    comm::Runtime rank0(fabric.device(0), options), rank1(fabric.device(1), options);
    std::atomic<int> finished{0};
    auto play = [&](comm::Runtime& rt, bool serve_first) {
      comm::Endpoint& ep = rt.endpoint();
      courier::Backoff backoff;
      int sends_posted = 0, sends_done = 0;
      auto receive = [&] {
        comm::Completion c;
        while (true) {
          if (ep.poll(c)) {
            if (c.op == comm::Op::recv) {
              ep.release(c);
              return;
            }
            ++sends_done;  // a rendezvous send finished
            continue;
          }
          if (!server) rt.progress();
          backoff.pause();
        }
      };
      auto send = [&] {
        comm::Post answer;
        while ((answer = ep.send(1 - rt.rank(), 0, message)) == comm::Post::retry) {
          if (!server) rt.progress();
          backoff.pause();
        }
        sends_posted += answer == comm::Post::posted;
        backoff.reset();
      };
      for (int i = 0; i < round_trips; ++i) {
        if (serve_first) {
          send();
          receive();
        } else {
          receive();
          send();
        }
        backoff.reset();
      }
      // Large sends complete (Op::send) after the peer pulled them; wait so buffers stay valid.
      while (sends_done < sends_posted) {
        comm::Completion c;
        if (ep.poll(c)) {
          ++sends_done;
          continue;
        }
        if (!server) rt.progress();
        backoff.pause();
      }
      // With explicit progress the last reply moves only while its sender progresses.
      finished.fetch_add(1);
      while (!server && finished.load() < 2) {
        if (!rt.progress()) backoff.pause();
      }
    };
    const auto start = Clock::now();
    std::thread peer([&] { play(rank1, false); });
    play(rank0, true);
    peer.join();
    const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
    state.SetIterationTime(elapsed / (2.0 * round_trips));
    seconds += elapsed;
    messages += 2 * static_cast<std::uint64_t>(round_trips);
    std::thread other([&] { rank1.shutdown(); });
    rank0.shutdown();
    other.join();
  }
  state.counters["one_way_us"] = seconds / static_cast<double>(messages) * 1e6;
  state.SetLabel(server ? "progress server" : "explicit progress");
}
BENCHMARK(BM_Latency)
    ->ArgsProduct({{8, 64, 512, 4096, 65536, 1 << 20}, {0, 1}})
    ->ArgNames({"bytes", "server"})
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond)
    ->Iterations(3);

// One thread: rank 0 sends, rank 1 progresses until the message is there and answers, rank 0
// progresses until the answer is there. Everything runs on this thread, in the same order every
// time, so its instruction count is a property of the code, not of the machine's load
// (callgrind: --toggle-collect='*one_thread_round_trip*' counts exactly these round trips).
struct OneThreadPair {
  comm::Runtime& rank0;
  comm::Runtime& rank1;
  std::span<const std::byte> message;

  void send(comm::Runtime& rt) {
    while (rt.endpoint().send(1 - rt.rank(), 0, message) == comm::Post::retry) rt.progress();
  }
  void receive(comm::Runtime& from, comm::Runtime& at) {
    comm::Completion c;
    while (!at.endpoint().poll(c)) {
      from.progress();
      at.progress();
    }
    at.endpoint().release(c);
  }
};

[[gnu::noinline]] void one_thread_round_trip(OneThreadPair& pair) {
  pair.send(pair.rank0);
  pair.receive(pair.rank0, pair.rank1);
  pair.send(pair.rank1);
  pair.receive(pair.rank1, pair.rank0);
}

void BM_PathLength(benchmark::State& state) {
  const auto bytes = static_cast<std::size_t>(state.range(0));
  const std::vector<std::byte> message(bytes, std::byte{3});
  comm::RuntimeOptions options;
  options.progress_thread = false;
  net::LocalFabric fabric(2);
  comm::Runtime rank0(fabric.device(0), options), rank1(fabric.device(1), options);
  OneThreadPair pair{rank0, rank1, message};
  for (auto _ : state) one_thread_round_trip(pair);
  state.SetLabel("ns per round trip, one thread, explicit progress");
  std::thread other([&] { rank1.shutdown(); });
  rank0.shutdown();
  other.join();
}
BENCHMARK(BM_PathLength)->Arg(8)->Arg(512)->ArgName("bytes")->Iterations(100000);

}  // namespace

BENCHMARK_MAIN();
