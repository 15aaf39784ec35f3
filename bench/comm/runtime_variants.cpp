// Courier's runtime itself (comm::Runtime with queue endpoints) on a transport, measured the same
// way as the MPI baselines: what a sync channel gets when its threads never enter MPI and the
// progress round packs the packets queued for one destination into one frame. Two progress
// modes: a progress server thread ("courier-X"), or the waiting threads progressing themselves
// ("courier-X-explicit", for runs with more threads than cores).
#include <memory>

#include "courier/comm/local_world.hpp"
#include "courier/comm/runtime.hpp"
#include "courier/net/mpi_device.hpp"
#include "variant.hpp"
#ifdef COURIER_HAVE_OFI
#include "courier/net/ofi_device.hpp"
#endif

namespace courier::bench {
namespace {

using DeviceFactory = std::function<std::unique_ptr<net::Device>()>;
constexpr int max_threads = 16;

// The runtime is built at first use, which every rank reaches in the same order (construction is
// collective), with one endpoint per benchmark thread: thread t of rank 0 talks to thread t of
// rank 1 through endpoint t. It lives until the variant table is destroyed, before MPI_Finalize.
class LazyRuntime {
 public:
  LazyRuntime(DeviceFactory factory, bool progress_thread)
      : factory_(std::move(factory)), progress_thread_(progress_thread) {}

  comm::Runtime& get() {
    if (!runtime_) {
      comm::RuntimeOptions options;
      options.progress_thread = progress_thread_;
      runtime_ = std::make_unique<comm::Runtime>(factory_(), options);
      endpoints_.push_back(&runtime_->endpoint());
      for (int t = 1; t < max_threads; ++t) endpoints_.push_back(&runtime_->create_endpoint({}));
    }
    return *runtime_;
  }
  comm::Endpoint& endpoint(int thread) { return *endpoints_[static_cast<std::size_t>(thread)]; }

 private:
  DeviceFactory factory_;
  bool progress_thread_;
  std::unique_ptr<comm::Runtime> runtime_;
  std::vector<comm::Endpoint*> endpoints_;
};

// One thread's side of a stream: large sends go by rendezvous and their bytes must stay put until
// the runtime reports them sent, so the thread counts them and waits for them before it returns.
class Poster {
 public:
  Poster(comm::Runtime& runtime, comm::Endpoint& endpoint) : runtime_(runtime), endpoint_(endpoint) {}
  ~Poster() { drain(); }

  void send(int dest, std::span<const std::byte> data) {
    Backoff backoff;
    for (;;) {
      const comm::Post answer = endpoint_.send(dest, 0, data);
      if (answer == comm::Post::posted) ++pending_;
      if (answer != comm::Post::retry) return;
      if (!runtime_.progress()) backoff.idle();  // no packet free: let progress drain the queues
    }
  }

  // Waits for the next received message (send completions pass by on the way).
  void receive() {
    while (!take(true)) {
    }
  }

  void drain() {
    while (pending_ > 0) take(false);
  }

 private:
  // One completion, waiting for it; true if it was a received message.
  bool take(bool want_message) {
    Backoff backoff;
    comm::Completion completion;
    for (;;) {
      if (endpoint_.poll(completion)) {
        if (completion.op == comm::Op::send) {
          --pending_;
          return false;
        }
        endpoint_.release(completion);
        return true;
      }
      if (!want_message && pending_ == 0) return false;
      backoff.idle();  // poll ran a round of progress itself (unless another thread was)
    }
  }

  comm::Runtime& runtime_;
  comm::Endpoint& endpoint_;
  int pending_ = 0;
};

// Ping-pong between ranks 0 and 1 of `runtime` on `endpoint`; seconds for `iterations` round
// trips after `warmup` more.
double ping_pong(comm::Runtime& runtime, comm::Endpoint& endpoint, std::size_t bytes, int iterations, int warmup) {
  std::vector<std::byte> out(bytes, std::byte{1});
  Poster poster(runtime, endpoint);
  auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < warmup + iterations; ++i) {
    if (i == warmup) start = std::chrono::steady_clock::now();
    if (runtime.rank() == 0) {
      poster.send(1, out);
      poster.receive();
    } else {
      poster.receive();
      poster.send(0, out);
    }
  }
  const double seconds = seconds_since(start);
  poster.drain();  // `out` must outlive its last rendezvous
  return seconds;
}

// Thread t of rank 0 streams windows of 64 messages of 64 B to thread t of rank 1 (endpoint t of
// each), which acknowledges each window; seconds after every thread's warm-up.
double stream(comm::Runtime& runtime, const std::function<comm::Endpoint&(int)>& endpoint, int threads, int windows,
              int warmup) {
  WarmupClock clock(threads);
  run_threads(threads, [&](int t) {
    Poster poster(runtime, endpoint(t));
    const std::vector<std::byte> message(rate_message_bytes, std::byte{7});
    const std::byte ack[1] = {std::byte{1}};
    for (int w = 0; w < warmup + windows; ++w) {
      if (w == warmup) clock.arrive();
      if (runtime.rank() == 0) {
        for (int m = 0; m < rate_window; ++m) poster.send(1, message);
        poster.receive();  // the window's acknowledgement
      } else {
        for (int m = 0; m < rate_window; ++m) poster.receive();
        poster.send(0, ack);
      }
    }
  });
  return clock.seconds();
}

// A barrier that keeps the runtime progressing while it waits: with explicit progress, a rank's
// last sends leave only while one of its threads calls progress().
void progressing_barrier(comm::Runtime& runtime) {
  MPI_Request request;
  MPI_Ibarrier(MPI_COMM_WORLD, &request);
  Backoff backoff;
  for (int done = 0;;) {
    MPI_Test(&request, &done, MPI_STATUS_IGNORE);
    if (done) return;
    if (!runtime.progress()) backoff.idle();
  }
}

double latency(const Setup& setup, LazyRuntime& lazy, std::size_t bytes) {
  comm::Runtime& runtime = lazy.get();
  MPI_Barrier(MPI_COMM_WORLD);
  double result = 0;
  if (setup.active()) {
    const int iterations = setup.latency_iterations(bytes);
    result = ping_pong(runtime, lazy.endpoint(0), bytes, iterations, iterations / 10) * 1e6 / iterations / 2;
  }
  progressing_barrier(runtime);
  return result;
}

double rate(const Setup& setup, LazyRuntime& lazy, int threads) {
  comm::Runtime& runtime = lazy.get();
  MPI_Barrier(MPI_COMM_WORLD);
  double result = 0;
  if (setup.active()) {
    const int windows = setup.rate_windows();
    const double seconds =
        stream(runtime, [&](int t) -> comm::Endpoint& { return lazy.endpoint(t); }, threads, windows,
               std::max(1, windows / 10));
    result = static_cast<double>(threads) * windows * rate_window / seconds;
  }
  progressing_barrier(runtime);
  return result;
}

// A barrier that waits asleep: MPI_Barrier polls a core, which would steal it from the local
// transport's threads on a 2-core machine.
void sleeping_barrier() {
  MPI_Request request;
  MPI_Ibarrier(MPI_COMM_WORLD, &request);
  for (int done = 0;;) {
    MPI_Test(&request, &done, MPI_STATUS_IGNORE);
    if (done) return;
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
}

// The local transport: two ranks as threads of MPI rank 0's process (the other MPI ranks wait
// asleep), so that it is measured in the same run as everything else.
template <class Body>
double on_local_pair(const Setup& setup, bool progress_thread, int threads, Body body) {
  MPI_Barrier(MPI_COMM_WORLD);
  if (setup.rank != 0) {
    sleeping_barrier();
    return 0;
  }
  double result = 0;
  comm::RuntimeOptions options;
  options.progress_thread = progress_thread;
  comm::run_local(
      2,
      [&](comm::Runtime& runtime) {
        std::vector<comm::Endpoint*> endpoints{&runtime.endpoint()};
        for (int t = 1; t < threads; ++t) endpoints.push_back(&runtime.create_endpoint({}));
        const double measured = body(runtime, endpoints);
        if (runtime.rank() == 0) result = measured;
      },
      options);
  sleeping_barrier();
  return result;
}

Variant local_variant(std::string name, bool progress_thread) {
  return {std::move(name),
          [progress_thread](const Setup& setup, std::size_t bytes) {
            const int iterations = setup.latency_iterations(bytes);
            return on_local_pair(setup, progress_thread, 1, [&](comm::Runtime& rt, auto& endpoints) {
              return ping_pong(rt, *endpoints[0], bytes, iterations, iterations / 10) * 1e6 / iterations / 2;
            });
          },
          [progress_thread](const Setup& setup, int threads) {
            const int windows = setup.rate_windows();
            return on_local_pair(setup, progress_thread, threads, [&](comm::Runtime& rt, auto& endpoints) {
              const double seconds = stream(
                  rt, [&](int t) -> comm::Endpoint& { return *endpoints[static_cast<std::size_t>(t)]; }, threads,
                  windows, std::max(1, windows / 10));
              return static_cast<double>(threads) * windows * rate_window / seconds;
            });
          }};
}

Variant runtime_variant(std::string name, DeviceFactory factory, bool progress_thread) {
  auto lazy = std::make_shared<LazyRuntime>(std::move(factory), progress_thread);
  return {std::move(name), [lazy](const Setup& s, std::size_t b) { return latency(s, *lazy, b); },
          [lazy](const Setup& s, int t) { return rate(s, *lazy, t); }};
}

}  // namespace

std::vector<Variant> runtime_variants() {
  std::vector<Variant> variants;
  variants.push_back(runtime_variant("courier-mpi", [] { return net::make_mpi_device(); }, true));
  variants.push_back(runtime_variant("courier-mpi-explicit", [] { return net::make_mpi_device(); }, false));
  variants.push_back(local_variant("courier-local", true));
  variants.push_back(local_variant("courier-local-explicit", false));
#ifdef COURIER_HAVE_OFI
  variants.push_back(runtime_variant("courier-ofi", [] { return net::make_ofi_device(); }, true));
#endif
  return variants;
}

}  // namespace courier::bench
