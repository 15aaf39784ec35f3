// comm_interface_bench: what the rest of LCI's interface (paper 002, issue 19) costs or saves, on
// the local transport, one thread driving both ranks (explicit progress: the software path alone,
// as comm_local_bench's PathLength). Each pair of variants runs alternated (A B A B ...) in one series;
// the table gives each variant's median and the median of the pairs' ratios.
//   recv     ping-pong latency (one way, us) with every receive posted before its message, on
//            match_tags endpoints: into allocator memory (alloc; alloc+copy: then copied into the
//            receiver's own buffer, as a caller that needs it there does) or into the caller's
//            buffer (explicit), 8 B .. 1 MiB
//   address  64 B message rate (M msgs/s), one endpoint to one endpoint of the peer: the one with
//            the sender's id (same-id) or another one, named by an Address (addressed)
//   signal   64 B message rate (M msgs/s) to a synchronizer endpoint, its synchronizer in the
//            runtime form (virtual) or the compile-time form (static); and the signal call alone
//            (ns per call, signal-only)
//
//   build/bench/comm_interface_bench --repeats 9 --json bench/results/comm_interface_bench-$C.json
//
// --path-length B --path-variant alloc|explicit runs only 1000 recv round trips of B bytes, so
// that `valgrind --tool=callgrind --toggle-collect='*one_thread_recv_round_trip*'` counts the
// instructions of one variant's round trips.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstring>
#include <fstream>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "command_line.hpp"
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

// Two ranks of the local transport, both driven by this thread (explicit progress): what is
// measured is the software path, without thread hand-offs, so that a loaded machine slows both
// variants of a pair alike instead of scheduling them differently.
class Pair {
 public:
  Pair() : fabric_(2) {
    comm::RuntimeOptions options;
    options.progress_thread = false;
    for (courier::rank_t r = 0; r < 2; ++r) rts_.push_back(std::make_unique<comm::Runtime>(fabric_.device(r), options));
  }
  ~Pair() {
    std::thread down([&] { rts_[1]->shutdown(); });
    rts_[0]->shutdown();
    down.join();
  }
  comm::Runtime& operator[](courier::rank_t r) { return *rts_[static_cast<std::size_t>(r)]; }
  void progress() {
    rts_[0]->progress();
    rts_[1]->progress();
  }

 private:
  net::LocalFabric fabric_;
  std::vector<std::unique_ptr<comm::Runtime>> rts_;
};

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

// A round trip on match_tags endpoints with every receive posted before its message.
struct RecvRoundTrip {
  Pair& pair;
  std::array<comm::Endpoint*, 2> eps;
  std::span<const std::byte> message;
  bool explicit_buffer;
  bool copy_out;  // allocator memory: the receiver copies the message into its own buffer
  std::array<std::vector<std::byte>, 2> buffers;
  int sends_posted = 0, sends_done = 0;

  void post(courier::rank_t at) {
    comm::Endpoint& ep = *eps[static_cast<std::size_t>(at)];
    comm::Completion c;
    const comm::Post answer = explicit_buffer ? ep.recv(1 - at, 1, buffers[static_cast<std::size_t>(at)], nullptr, &c)
                                              : ep.recv(1 - at, 1, nullptr, &c);
    if (answer == comm::Post::done) throw std::logic_error("a message arrived before its recv was posted");
  }
  void send(courier::rank_t from) {
    comm::Post answer;
    while ((answer = eps[static_cast<std::size_t>(from)]->send(1 - from, 1, message)) == comm::Post::retry) {
      pair.progress();
    }
    sends_posted += answer == comm::Post::posted;
  }
  void receive(courier::rank_t at) {
    comm::Endpoint& ep = *eps[static_cast<std::size_t>(at)];
    for (;;) {
      comm::Completion c;
      if (!ep.poll(c)) {
        pair.progress();
        continue;
      }
      if (c.op == comm::Op::send) {
        ++sends_done;
        continue;
      }
      if (copy_out && !c.caller_buffer) std::memcpy(buffers[static_cast<std::size_t>(at)].data(), c.data, c.size);
      ep.release(c);
      return;
    }
  }
  // Rendezvous sends complete (Op::send) after their peer pulled them: their sources stay alive.
  void finish_sends() {
    while (sends_done < sends_posted) {
      pair.progress();
      comm::Completion c;
      for (comm::Endpoint* ep : eps) {
        while (ep->poll(c)) sends_done += c.op == comm::Op::send;
      }
    }
  }
};

// callgrind: --toggle-collect='*one_thread_recv_round_trip*' counts exactly these.
[[gnu::noinline]] void one_thread_recv_round_trip(RecvRoundTrip& trip) {
  trip.send(0);
  trip.receive(1);
  trip.post(1);
  trip.send(1);
  trip.receive(0);
  trip.post(0);
}

// One-way latency in us of `round_trips` round trips of `bytes`.
double recv_latency(std::size_t bytes, bool explicit_buffer, bool copy_out, int round_trips) {
  Pair pair;
  comm::EndpointOptions options;
  options.match_tags = true;
  const std::vector<std::byte> message(bytes, std::byte{5});
  RecvRoundTrip trip{pair,     {&pair[0].create_endpoint(options), &pair[1].create_endpoint(options)},
                     message,  explicit_buffer,
                     copy_out, {std::vector<std::byte>(bytes), std::vector<std::byte>(bytes)}};
  trip.post(0);
  trip.post(1);
  const auto start = Clock::now();
  for (int i = 0; i < round_trips; ++i) one_thread_recv_round_trip(trip);
  const double seconds = seconds_since(start);
  trip.finish_sends();
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

// M msgs/s of `messages` 64 B messages from rank 0's `from` endpoint to `to` at rank 1, in windows
// of 64; received() counts what arrived (taking it).
double stream_rate(Pair& pair, comm::Endpoint& from, comm::Address to, int messages,
                   const std::function<std::uint64_t()>& received) {
  const std::vector<std::byte> message(64, std::byte{6});
  const auto start = Clock::now();
  for (int sent = 0; sent < messages;) {
    for (int w = 0; w < 64 && sent < messages; ++w, ++sent) {
      while (from.send(to, 1, message) == comm::Post::retry) pair.progress();
    }
    while (received() < static_cast<std::uint64_t>(sent)) pair.progress();
  }
  return messages / seconds_since(start) / 1e6;
}

double address_rate(bool addressed, int messages) {
  Pair pair;
  Scratch scratch;
  comm::EndpointOptions options;
  options.allocator = &scratch;
  comm::Endpoint& from = pair[0].create_endpoint({});  // id 1
  std::array<comm::Endpoint*, 2> at{&pair[1].create_endpoint(options), &pair[1].create_endpoint(options)};
  comm::Endpoint& target = *at[addressed ? 1 : 0];  // id 2, or id 1 (the sender's)
  std::uint64_t count = 0;
  auto received = [&] {
    comm::Completion c;
    while (target.poll(c)) {
      target.release(c);
      ++count;
    }
    return count;
  };
  return addressed ? stream_rate(pair, from, {1, target.id()}, messages, received)
                   : stream_rate(pair, from, {1, from.id()}, messages, received);
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

// The signal-only series: a plain count, so that the call is what is timed.
struct PlainTally {
  void signal(const comm::Completion&) { ++count; }
  std::uint64_t count = 0;
};
struct VirtualPlainTally final : comm::Synchronizer {
  void signal(const comm::Completion& c) override { tally.signal(c); }
  PlainTally tally;
};

// ns per signal() through `ref` (out of line, so the compiler cannot see which form it holds).
[[gnu::noinline]] double signal_ns(const comm::SynchronizerRef& ref, int calls) {
  comm::Completion c;
  const auto start = Clock::now();
  for (int i = 0; i < calls; ++i) {
    c.tag = static_cast<comm::tag_t>(i);
    ref.signal(c);
  }
  return seconds_since(start) / calls * 1e9;
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
  courier::bench::CommandLine command_line(
      "What explicit receive buffers, addressed endpoints and the compile-time synchronizer cost or save");
  int repeats = 9;
  double scale = 1.0;
  std::string json_path = "comm_interface_bench.json";
  std::vector<std::string> series{"recv", "address", "signal"};
  command_line.add("--repeats", repeats, "Alternated runs of each pair (the medians are of these)").range(1, 99);
  command_line.add("--scale", scale, "Multiplies the iteration counts (0.05: a smoke test)").range(0.001, 100.0);
  command_line.add("--series", series, "recv, address, signal");
  command_line.add("--json", json_path, "Where the samples go");
  std::size_t path_bytes = 0;
  std::string path_variant;
  command_line.add("--path-length", path_bytes,
                   "Only run 1000 recv round trips of this many bytes (for callgrind, see RESULTS.md)");
  command_line.add("--path-variant", path_variant, "With --path-length: alloc or explicit")
      .choices({"alloc", "explicit"});
  if (const auto status = command_line.parse(argc, argv)) return *status;
  if (path_bytes > 0) {
    recv_latency(path_bytes, path_variant == "explicit", false, 1000);
    return 0;
  }
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
      const int trips = scaled(bytes >= (1u << 20) ? 500 : bytes >= 65536 ? 5000 : 50000);
      pair(
          "recv", bytes, "us one way", "alloc", [&] { return recv_latency(bytes, false, false, trips); }, "explicit",
          [&] { return recv_latency(bytes, true, false, trips); });
      pair(
          "recv", bytes, "us one way", "alloc+copy", [&] { return recv_latency(bytes, false, true, trips); },
          "explicit", [&] { return recv_latency(bytes, true, false, trips); });
    }
  }
  if (wanted("address")) {
    const int messages = scaled(1000000);
    pair(
        "address", 64, "M msgs/s", "addressed", [&] { return address_rate(true, messages); }, "same-id",
        [&] { return address_rate(false, messages); });
  }
  if (wanted("signal")) {
    const int messages = scaled(1000000);
    pair(
        "signal", 64, "M msgs/s", "static", [&] { return signal_rate(true, messages); }, "virtual",
        [&] { return signal_rate(false, messages); });
    VirtualPlainTally sync;
    const int calls = scaled(50000000);
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
