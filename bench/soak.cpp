// soak: the communication runtime under a long, random load (issue 17). Not a timed test: run it
// for a count or a time and read its verdict. Every rank's threads send messages of random sizes
// (0 B to past the rendezvous threshold) to random ranks through one queue endpoint and take
// whatever arrives; every message's bytes are a function of (source, thread, sequence), checked
// on arrival, and each receiver counts, per sending thread, the messages, the sum of their
// sequence numbers and the sum of their squares, so a lost, duplicated or altered message fails
// the run. At the end each thread tells every rank how many it sent there. Memory must stay flat:
// the resident size is sampled, and the last sample may not exceed the one at 20% of the run by
// more than 10% + 16 MiB.
//
//   soak --ranks 4 --threads 2 --messages 1e8               # local transport (ranks as threads)
//   COURIER_CHAOS=7 soak --ranks 3 --messages 1e6           # chaos mode: faults and starvation
//   mpirun -np 2 soak --transport mpi --threads 2 --messages 1e7
//   mpirun -np 2 soak --transport ofi --threads 2 --messages 1e7     # libfabric (its shm provider here)
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "command_line.hpp"
#include "courier/comm/local_world.hpp"
#include "courier/comm/runtime.hpp"
#include "courier/core/backoff.hpp"
#include "courier/net/local.hpp"
#ifdef COURIER_HAVE_MPI
#include <mpi.h>

#include "courier/core/error.hpp"
#include "courier/net/mpi_device.hpp"
#ifdef COURIER_HAVE_OFI
#include "courier/net/ofi_device.hpp"
#endif
#include "courier/net/mpi_environment.hpp"
#endif

#include "soak_support.hpp"

namespace {

using namespace courier;
using namespace courier::soak;

constexpr std::uint64_t done_bit = std::uint64_t{1} << 63;
constexpr int thread_shift = 48;  // tag: done bit, thread (15 bits), sequence (48 bits)

std::uint64_t key(rank_t source, int thread, std::uint64_t sequence) {
  return mix((static_cast<std::uint64_t>(source) << 52) ^ (static_cast<std::uint64_t>(thread) << 44) ^ mix(sequence));
}

std::size_t message_size(std::uint64_t h, std::size_t eager, std::size_t max_bytes) {
  const std::uint64_t bucket = h % 100;
  h /= 100;
  if (bucket < 90) return h % 65;           // tiny, 0 included
  if (bucket < 99) return h % (eager + 1);  // up to the eager limit
  return h % (max_bytes + 1);               // past it, by rendezvous
}

struct Config {
  int ranks = 4;
  int threads = 2;
  double messages = 1e6;  // per rank, all threads together
  double seconds = 0;     // if set, send until then instead
  std::size_t max_bytes = 64 * 1024;
  bool progress_thread = true;
};

// What one rank heard from each (source, thread), updated by whichever of its threads polls.
struct Tally {
  std::atomic<std::uint64_t> count{0}, sum{0}, squares{0}, announced{0};
  std::atomic<bool> done{false};
};

struct Outcome {
  std::uint64_t sent = 0, received = 0, bytes = 0, errors = 0;
};

struct Shared {  // across the ranks of this process, for the report
  std::mutex mutex;
  Outcome total;
  std::vector<std::string> errors;
  std::atomic<std::uint64_t> progress{0};  // messages sent so far, all ranks
};

void run_rank(comm::Runtime& runtime, const Config& config, Shared& shared) {
  const rank_t me = runtime.rank(), ranks = runtime.ranks();
  const int threads = config.threads;
  comm::Endpoint& endpoint = runtime.endpoint();
  std::vector<Tally> tallies(static_cast<std::size_t>(ranks) * static_cast<std::size_t>(threads));
  std::atomic<std::uint64_t> received{0}, bytes_received{0}, errors{0}, dones{0};
  std::mutex error_mutex;
  auto fail = [&](std::string what) {
    errors.fetch_add(1);
    std::lock_guard lock(error_mutex);
    if (shared.errors.size() < 20) shared.errors.push_back(fmt::format("rank {}: {}", me, what));
  };
  // Takes one completion if there is one: a received message is checked and counted, a finished
  // send's buffer freed.
  auto take = [&]() -> bool {
    comm::Completion c;
    if (!endpoint.poll(c)) return false;
    if (c.op != comm::Op::recv) {
      delete[] static_cast<std::byte*>(c.context);
      return true;
    }
    const int thread = static_cast<int>((c.tag & ~done_bit) >> thread_shift);
    if (c.rank < 0 || c.rank >= ranks || thread >= threads) {
      fail(fmt::format("a message with source {} and tag {:#x}", c.rank, c.tag));
      endpoint.release(c);
      return true;
    }
    Tally& t = tallies[static_cast<std::size_t>(c.rank) * static_cast<std::size_t>(threads) +
                       static_cast<std::size_t>(thread)];
    if (c.tag & done_bit) {
      std::uint64_t n = 0;
      if (c.size != sizeof n) fail("a malformed end message");
      std::memcpy(&n, c.data, std::min(c.size, sizeof n));
      t.announced.store(n);
      if (t.done.exchange(true)) fail(fmt::format("two end messages from rank {} thread {}", c.rank, thread));
      dones.fetch_add(1);
    } else {
      const std::uint64_t sequence = c.tag & ((std::uint64_t{1} << thread_shift) - 1);
      const std::uint64_t k =
          key(c.rank, thread, sequence * static_cast<std::uint64_t>(ranks) + static_cast<std::uint64_t>(me));
      const std::size_t expected = message_size(mix(k), runtime.eager_limit(), config.max_bytes);
      if (c.size != expected || !intact(c.data, c.size, k)) {
        fail(fmt::format("message {} from rank {} thread {}: {} bytes, {} expected, {}", sequence, c.rank, thread,
                         c.size, expected, c.size == expected ? "altered" : "wrong size"));
      }
      t.count.fetch_add(1, std::memory_order_relaxed);
      t.sum.fetch_add(sequence, std::memory_order_relaxed);
      t.squares.fetch_add(sequence * sequence, std::memory_order_relaxed);
      received.fetch_add(1, std::memory_order_relaxed);
      bytes_received.fetch_add(c.size, std::memory_order_relaxed);
    }
    endpoint.release(c);
    return true;
  };

  const auto per_thread = static_cast<std::uint64_t>(config.messages / threads);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(config.seconds);
  std::atomic<std::uint64_t> sent_total{0};
  std::atomic<int> senders_left{threads};
  auto work = [&](int thread) {
    std::vector<std::uint64_t> next(static_cast<std::size_t>(ranks), 0);  // sequence per destination
    std::uint64_t random = mix(static_cast<std::uint64_t>(me) * 1000003 + static_cast<std::uint64_t>(thread));
    Backoff backoff;
    for (std::uint64_t i = 0;; ++i) {
      if (config.seconds > 0 ? (i % 256 == 0 && std::chrono::steady_clock::now() >= deadline) : i >= per_thread) break;
      random = mix(random);
      const auto dest = static_cast<rank_t>(random % static_cast<std::uint64_t>(ranks));
      const std::uint64_t sequence = next[static_cast<std::size_t>(dest)]++;
      const std::uint64_t k =
          key(me, thread, sequence * static_cast<std::uint64_t>(ranks) + static_cast<std::uint64_t>(dest));
      const std::size_t size = message_size(mix(k), runtime.eager_limit(), config.max_bytes);
      auto* buffer = new std::byte[std::max<std::size_t>(size, 1)];
      fill(buffer, size, k);
      const comm::tag_t tag = (static_cast<std::uint64_t>(thread) << thread_shift) | sequence;
      comm::Post post;
      while ((post = endpoint.send(dest, tag, std::span<const std::byte>(buffer, size), buffer)) == comm::Post::retry) {
        if (!take() && !runtime.progress()) backoff.pause();
      }
      backoff.reset();
      if (post == comm::Post::done) delete[] buffer;  // posted: freed by its completion
      take();
      if (i % 4096 == 4095) shared.progress.fetch_add(4096, std::memory_order_relaxed);
    }
    std::uint64_t sent = 0;
    for (rank_t dest = 0; dest < ranks; ++dest) {
      const std::uint64_t n = next[static_cast<std::size_t>(dest)];
      sent += n;
      std::byte payload[sizeof n];
      std::memcpy(payload, &n, sizeof n);
      while (endpoint.send(dest, done_bit | (static_cast<std::uint64_t>(thread) << thread_shift), payload) ==
             comm::Post::retry) {
        if (!take() && !runtime.progress()) backoff.pause();
      }
    }
    sent_total.fetch_add(sent);
    senders_left.fetch_sub(1);
    // Receive until every (source, thread) announced its count and all of it arrived.
    const auto expected_dones = static_cast<std::uint64_t>(ranks) * static_cast<std::uint64_t>(threads);
    for (;;) {
      if (dones.load() == expected_dones) {
        bool all = true;
        for (const Tally& t : tallies) all = all && t.count.load() >= t.announced.load();
        if (all) break;
      }
      if (take()) {
        backoff.reset();
      } else if (!runtime.progress()) {
        backoff.pause();
      }
    }
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) pool.emplace_back(work, t);
  work(0);
  for (auto& t : pool) t.join();
  // Sends still finishing (rendezvous) free their buffers as their completions come.
  while (senders_left.load() > 0 || take()) {
  }
  for (rank_t source = 0; source < ranks; ++source) {
    for (int thread = 0; thread < threads; ++thread) {
      const Tally& t = tallies[static_cast<std::size_t>(source) * static_cast<std::size_t>(threads) +
                               static_cast<std::size_t>(thread)];
      const std::uint64_t n = t.announced.load();
      std::uint64_t sum = 0, squares = 0;
      for (std::uint64_t s = 0; s < n; ++s) {
        sum += s;
        squares += s * s;
      }
      if (t.count.load() != n || t.sum.load() != sum || t.squares.load() != squares) {
        fail(
            fmt::format("from rank {} thread {}: {} messages announced, {} arrived (sequence sums {} / {}, squares "
                        "{} / {}): lost or duplicated",
                        source, thread, n, t.count.load(), t.sum.load(), sum, t.squares.load(), squares));
      }
    }
  }
  std::lock_guard lock(shared.mutex);
  shared.total.sent += sent_total.load();
  shared.total.received += received.load();
  shared.total.bytes += bytes_received.load();
  shared.total.errors += errors.load();
}

int report(const Config& config, const std::string& transport, rank_t ranks, Shared& shared, const MemoryWatch& memory,
           double seconds) {
  const Outcome& o = shared.total;
  for (const std::string& e : shared.errors) std::fprintf(stderr, "soak: %s\n", e.c_str());
  const bool ok = o.errors == 0 && o.sent == o.received && memory.flat();
  fmt::print("soak {}: transport {}, {} ranks x {} threads, commit {}\n", ok ? "PASS" : "FAIL", transport, ranks,
             config.threads, COURIER_COMMIT);
  fmt::print("  messages sent {}, received {}, {:.1f} MB, {:.1f} s, {:.2f} M msgs/s, errors {}\n", o.sent, o.received,
             static_cast<double>(o.bytes) / 1e6, seconds, static_cast<double>(o.received) / seconds / 1e6, o.errors);
  fmt::print("  resident: {:.1f} MB at a fifth, {:.1f} MB at the end, peak {:.1f} MB: {}\n",
             static_cast<double>(memory.at_fifth) / 1e6, static_cast<double>(memory.last) / 1e6,
             static_cast<double>(memory.peak) / 1e6, memory.flat() ? "flat" : "GROWING");
  return ok ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  Config config;
  std::string transport = "local";
  courier::bench::CommandLine command_line("soak: random messages, each checked and counted, until a count or a time");
  command_line.add("--transport", transport, "local (ranks as threads), mpi or ofi (under mpirun)")
      .choices({"local", "mpi", "ofi"});
  command_line.add("--ranks", config.ranks, "local: ranks as threads").range(1, 1024);
  command_line.add("--threads", config.threads, "sending threads per rank").range(1, 64);
  command_line.add("--messages", config.messages, "messages per rank (all its threads)");
  command_line.add("--seconds", config.seconds, "send for this long instead of a count");
  command_line.add("--max-bytes", config.max_bytes, "largest message (the eager limit is 8 KiB)");
  command_line.flag("!--no-progress-thread", config.progress_thread, "callers drive progress");
  if (const auto status = command_line.parse(argc, argv)) return *status;
  comm::RuntimeOptions options;
  options.progress_thread = config.progress_thread;
  Shared shared;
  MemoryWatch memory;
  const auto start = std::chrono::steady_clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
  try {
    if (transport == "local") {
      memory.start(shared.progress, config.seconds > 0 ? 1e300 : config.messages * config.ranks);
      comm::run_local(
          config.ranks, [&](comm::Runtime& runtime) { run_rank(runtime, config, shared); }, options);
      memory.finish();
      return report(config, transport, config.ranks, shared, memory, elapsed());
    }
#ifdef COURIER_HAVE_MPI
    net::MpiEnvironment mpi(&argc, &argv);
    int rank = 0, ranks = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &ranks);
    memory.start(shared.progress, config.seconds > 0 ? 1e300 : config.messages);
    {
#ifdef COURIER_HAVE_OFI
      comm::Runtime runtime(transport == "ofi" ? net::make_ofi_device() : net::make_mpi_device(), options);
#else
      if (transport == "ofi") throw Error("this build has no libfabric (ofi)");
      comm::Runtime runtime(net::make_mpi_device(), options);
#endif
      run_rank(runtime, config, shared);
      runtime.shutdown();
    }
    memory.finish();
    std::uint64_t mine[4] = {shared.total.sent, shared.total.received, shared.total.bytes, shared.total.errors};
    std::uint64_t all[4];
    MPI_Allreduce(mine, all, 4, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
    int flat = memory.flat() ? 1 : 0, all_flat = 0;
    if (!flat) {
      std::fprintf(stderr, "soak: rank %d: resident %.1f MB at a fifth, %.1f MB at the end: GROWING\n", rank,
                   static_cast<double>(memory.at_fifth) / 1e6, static_cast<double>(memory.last) / 1e6);
    }
    for (const std::string& e : shared.errors) std::fprintf(stderr, "soak: %s\n", e.c_str());
    MPI_Allreduce(&flat, &all_flat, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    shared.total = {all[0], all[1], all[2], all[3]};
    const int code = rank == 0 ? report(config, transport, ranks, shared, memory, elapsed()) : 0;
    int worst = code;
    MPI_Allreduce(&code, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    return (worst != 0 || !all_flat || shared.total.errors != 0 || all[0] != all[1]) ? 1 : 0;
#else
    std::fprintf(stderr, "soak: this build has no MPI\n");
    return 2;
#endif
  } catch (const std::exception& e) {
    std::fprintf(stderr, "soak: error: %s\n", e.what());
    return 2;
  }
}
