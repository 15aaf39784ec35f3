// comm_interface_bench: what the rest of LCI's interface (paper 002, issue 19) costs or saves, on
// the local transport (two ranks as threads of this process, explicit progress: each waiting
// thread progresses its rank). Each pair of variants runs alternated (A B A B ...) in one series;
// the table gives each variant's median and the median of the pairs' ratios.
//   recv     ping-pong latency (one way, us) with every receive posted before its message, on
//            match_tags endpoints: into allocator memory (alloc) or into the caller's buffer
//            (explicit), 8 B .. 1 MiB
//   address  64 B message rate (M msgs/s), one endpoint to one endpoint of the peer: the one with
//            the sender's id (same-id) or another one, named by an Address (addressed)
//   signal   64 B message rate (M msgs/s) to a synchronizer endpoint, its synchronizer in the
//            runtime form (virtual) or the compile-time form (static); and the signal call alone
//            (ns per call, signal-only)
//
//   build/bench/comm_interface_bench --repeats 9 --json bench/results/comm_interface_bench-$C.json
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <fstream>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "courier/comm/runtime.hpp"
#include "courier/core/backoff.hpp"
#include "courier/net/local.hpp"

#ifndef COURIER_COMMIT
#define COURIER_COMMIT "unknown"
#endif

namespace comm = courier::comm;
namespace net = courier::net;
using Clock = std::chrono::steady_clock;

namespace {

// Two ranks as threads: body(rank's runtime) on one thread each; the seconds between the moment
// both are ready (the body calls `ready`) and the later end.
class Pair {
 public:
  Pair() : fabric_(2) {
    comm::RuntimeOptions options;
    options.progress_thread = false;
    for (courier::rank_t r = 0; r < 2; ++r) rts_.push_back(std::make_unique<comm::Runtime>(fabric_.device(r), options));
  }
  comm::Runtime& operator[](courier::rank_t r) { return *rts_[static_cast<std::size_t>(r)]; }

  // body(rt, start): start() waits for both ranks, then the clock runs until both bodies return.
  double run(const std::function<void(comm::Runtime&, const std::function<void()>&)>& body) {
    std::atomic<int> ready{0};
    Clock::time_point start;
    auto go = [&] {
      if (ready.fetch_add(1) == 1) start = Clock::now();
      while (ready.load() < 2) std::this_thread::yield();
    };
    std::thread other([&] { body(*rts_[1], go); });
    body(*rts_[0], go);
    other.join();
    const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
    std::thread down([&] { rts_[1]->shutdown(); });
    rts_[0]->shutdown();
    down.join();
    return seconds;
  }

 private:
  net::LocalFabric fabric_;
  std::vector<std::unique_ptr<comm::Runtime>> rts_;
};

void send_until_taken(comm::Runtime& rt, comm::Endpoint& ep, comm::Address to, comm::tag_t tag,
                      std::span<const std::byte> data) {
  courier::Backoff backoff;
  while (ep.send(to, tag, data) == comm::Post::retry) {
    if (!rt.progress()) backoff.pause();
  }
}

// One-way latency in us of a ping-pong of `bytes` between match_tags endpoints, each receive
// posted before its message can arrive.
double recv_latency(std::size_t bytes, bool explicit_buffer, int round_trips) {
  Pair pair;
  comm::EndpointOptions options;
  options.match_tags = true;
  std::array<comm::Endpoint*, 2> eps{&pair[0].create_endpoint(options), &pair[1].create_endpoint(options)};
  const std::vector<std::byte> message(bytes, std::byte{5});
  const double seconds = pair.run([&](comm::Runtime& rt, const std::function<void()>& start) {
    comm::Endpoint& ep = *eps[static_cast<std::size_t>(rt.rank())];
    const courier::rank_t peer = 1 - rt.rank();
    std::vector<std::byte> buffer(bytes);
    int sends_posted = 0, sends_done = 0;
    auto post = [&](comm::Completion& c) {
      return explicit_buffer ? ep.recv(peer, 1, buffer, nullptr, &c) : ep.recv(peer, 1, nullptr, &c);
    };
    auto wait = [&](bool already) {
      comm::Completion c;
      courier::Backoff backoff;
      while (!already) {
        if (!ep.poll(c)) {
          backoff.pause();
          continue;
        }
        if (c.op == comm::Op::send) {
          ++sends_done;
          continue;
        }
        ep.release(c);
        already = true;
      }
    };
    auto send = [&] {
      comm::Post answer;
      courier::Backoff backoff;
      while ((answer = ep.send(peer, 1, message)) == comm::Post::retry) {
        if (!rt.progress()) backoff.pause();
      }
      sends_posted += answer == comm::Post::posted;
    };
    comm::Completion first;
    bool here = post(first) == comm::Post::done;
    if (here) ep.release(first);
    start();
    for (int i = 0; i < round_trips; ++i) {
      if (rt.rank() == 0) {
        send();
        wait(here);
        comm::Completion c;
        if (i + 1 < round_trips && (here = post(c) == comm::Post::done)) ep.release(c);
      } else {
        wait(here);
        comm::Completion c;
        if (i + 1 < round_trips && (here = post(c) == comm::Post::done)) ep.release(c);
        send();
      }
    }
    courier::Backoff backoff;
    while (sends_done < sends_posted) {
      comm::Completion c;
      if (ep.poll(c)) {
        sends_done += c.op == comm::Op::send;
      } else {
        backoff.pause();
      }
    }
  });
  return seconds / (2.0 * round_trips) * 1e6;
}

// A scratch buffer for every received message: the rate cases measure the runtime's path, not
// the heap's.
struct Scratch final : comm::Allocator {
  std::byte* allocate(std::size_t bytes) override { return bytes <= sizeof buffer ? buffer : new std::byte[bytes]; }
  void deallocate(std::byte* data, std::size_t) override {
    if (data != buffer) delete[] data;
  }
  std::byte buffer[256];
};

// M msgs/s of `messages` 64 B messages from rank 0's `from` endpoint to rank 1's `to` endpoint;
// rank 1 counts them with count(), then answers on its initial endpoint.
double stream_rate(Pair& pair, comm::Endpoint& from, comm::Address to, int messages,
                   const std::function<std::uint64_t()>& received) {
  const std::vector<std::byte> message(64, std::byte{6});
  const double seconds = pair.run([&](comm::Runtime& rt, const std::function<void()>& start) {
    start();
    courier::Backoff backoff;
    comm::Completion c;
    if (rt.rank() == 0) {
      for (int i = 0; i < messages; ++i) send_until_taken(rt, from, to, 1, message);
      while (!rt.endpoint().poll(c)) backoff.pause();  // the answer
      rt.endpoint().release(c);
      return;
    }
    while (received() < static_cast<std::uint64_t>(messages)) {
      if (rt.progress()) {
        backoff.reset();
      } else {
        backoff.pause();
      }
    }
    send_until_taken(rt, rt.endpoint(), {0, 0}, 2, std::span(message).first(1));
  });
  return messages / seconds / 1e6;
}

double address_rate(bool addressed, int messages) {
  Pair pair;
  Scratch scratch;
  comm::EndpointOptions options;
  options.allocator = &scratch;
  comm::Endpoint& from = pair[0].create_endpoint({});  // id 1
  std::array<comm::Endpoint*, 2> at{&pair[1].create_endpoint(options), &pair[1].create_endpoint(options)};
  comm::Endpoint& target = *at[addressed ? 1 : 0];
  std::uint64_t count = 0;
  return stream_rate(pair, from, {1, target.id()}, messages, [&] {
    comm::Completion c;
    while (target.poll(c)) {
      target.release(c);
      ++count;
    }
    return count;
  });
}

// The synchronizer of the signal series, in both forms: one counter.
struct Tally {
  void signal(const comm::Completion&) { count.fetch_add(1, std::memory_order_release); }
  std::atomic<std::uint64_t> count{0};
};
struct VirtualTally final : comm::Synchronizer {
  void signal(const comm::Completion& c) override { tally.signal(c); }
  Tally tally;
};

double signal_rate(bool compile_time, int messages) {
  Pair pair;
  Scratch scratch;
  VirtualTally sync;
  comm::EndpointOptions options;
  options.completion = comm::CompletionKind::synchronizer;
  options.allocator = &scratch;
  options.synchronizer = compile_time ? comm::SynchronizerRef(&sync.tally)
                                      : comm::SynchronizerRef(static_cast<comm::Synchronizer*>(&sync));
  comm::Endpoint& from = pair[0].create_endpoint({});
  pair[1].create_endpoint(options);
  return stream_rate(pair, from, {1, 1}, messages, [&] { return sync.tally.count.load(std::memory_order_acquire); });
}

// ns per signal() through `ref` (out of line, so the compiler cannot see which form it holds).
[[gnu::noinline]] double signal_ns(const comm::SynchronizerRef& ref, int calls) {
  comm::Completion c;
  const auto start = Clock::now();
  for (int i = 0; i < calls; ++i) {
    c.tag = static_cast<comm::tag_t>(i);
    ref.signal(c);
  }
  return std::chrono::duration<double>(Clock::now() - start).count() / calls * 1e9;
}

// The upper median (the middle one of an odd count).
double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

struct Result {
  std::string series, variant;
  std::size_t bytes;
  std::string unit;
  std::vector<double> samples;
};

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"What explicit receive buffers, addressed endpoints and the compile-time synchronizer cost or save"};
  int repeats = 9;
  double scale = 1.0;
  std::string json_path = "comm_interface_bench.json";
  std::vector<std::string> series{"recv", "address", "signal"};
  app.add_option("--repeats", repeats, "Alternated runs of each pair (the medians are of these)")
      ->check(CLI::Range(1, 99));
  app.add_option("--scale", scale, "Multiplies the iteration counts (0.05: a smoke test)")
      ->check(CLI::Range(0.001, 100.0));
  app.add_option("--series", series, "recv, address, signal");
  app.add_option("--json", json_path, "Where the samples go");
  CLI11_PARSE(app, argc, argv);
  auto scaled = [&](int n) { return std::max(4, static_cast<int>(n * scale)); };
  auto wanted = [&](const std::string& s) { return std::find(series.begin(), series.end(), s) != series.end(); };

  fmt::print("comm_interface_bench, commit {}, {} hardware threads, {} alternated runs a pair\n", COURIER_COMMIT,
             std::thread::hardware_concurrency(), repeats);
  fmt::print("{:<8} {:>8} {:<12} {:>10} {:<12} {:>10} {:>8}\n", "series", "bytes", "A", "median", "B", "median", "A/B");
  std::vector<Result> results;
  // Runs a and b alternated, then prints both medians and the median of the ratios a/b.
  auto pair = [&](const std::string& name, std::size_t bytes, const std::string& unit, const std::string& a_name,
                  const std::function<double()>& a, const std::string& b_name, const std::function<double()>& b) {
    Result ra{name, a_name, bytes, unit, {}}, rb{name, b_name, bytes, unit, {}};
    std::vector<double> ratios;
    for (int r = 0; r < repeats; ++r) {
      ra.samples.push_back(a());
      rb.samples.push_back(b());
      ratios.push_back(ra.samples.back() / rb.samples.back());
    }
    fmt::print("{:<8} {:>8} {:<12} {:>10.3f} {:<12} {:>10.3f} {:>8.3f}  ({})\n", name, bytes, a_name,
               median(ra.samples), b_name, median(rb.samples), median(ratios), unit);
    std::fflush(stdout);
    results.push_back(std::move(ra));
    results.push_back(std::move(rb));
  };

  if (wanted("recv")) {
    for (std::size_t bytes : {std::size_t{8}, std::size_t{4096}, std::size_t{65536}, std::size_t{1} << 20}) {
      const int trips = scaled(bytes >= (1u << 20) ? 200 : bytes >= 65536 ? 2000 : 10000);
      pair(
          "recv", bytes, "us one way", "alloc", [&] { return recv_latency(bytes, false, trips); }, "explicit",
          [&] { return recv_latency(bytes, true, trips); });
    }
  }
  if (wanted("address")) {
    const int messages = scaled(200000);
    pair(
        "address", 64, "M msgs/s", "addressed", [&] { return address_rate(true, messages); }, "same-id",
        [&] { return address_rate(false, messages); });
  }
  if (wanted("signal")) {
    const int messages = scaled(200000);
    pair(
        "signal", 64, "M msgs/s", "static", [&] { return signal_rate(true, messages); }, "virtual",
        [&] { return signal_rate(false, messages); });
    VirtualTally sync;
    const int calls = scaled(20000000);
    pair(
        "signal", 0, "ns a call", "static", [&] { return signal_ns(comm::SynchronizerRef(&sync.tally), calls); },
        "virtual", [&] { return signal_ns(comm::SynchronizerRef(static_cast<comm::Synchronizer*>(&sync)), calls); });
  }

  nlohmann::json out;
  out["benchmark"] = "comm_interface_bench";
  out["commit"] = COURIER_COMMIT;
  out["repeats"] = repeats;
  out["scale"] = scale;
  for (const Result& r : results) {
    out["results"].push_back({{"series", r.series},
                              {"variant", r.variant},
                              {"bytes", r.bytes},
                              {"unit", r.unit},
                              {"median", median(r.samples)},
                              {"samples", r.samples}});
  }
  std::ofstream(json_path) << out.dump(2) << "\n";
  return 0;
}
