// Courier's runtime itself (comm::Runtime with queue endpoints) on a transport, measured the same
// way as the MPI baselines: what a graph layer gets when its threads never enter MPI and the
// progress engine packs the packets queued for one destination into one frame. Two progress
// modes: a progress server thread ("courier-X"), or the waiting threads progressing themselves
// ("courier-X-explicit", for runs with more threads than cores).
#include <memory>

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

void send(comm::Runtime& runtime, comm::Endpoint& endpoint, int dest, std::span<const std::byte> data) {
  Backoff backoff;
  while (endpoint.send(dest, 0, data) == comm::Post::retry) {
    if (!runtime.progress()) backoff.idle();
  }
}

// Waits for the next received message on `endpoint` (send completions of rendezvous messages
// pass by on the way).
void receive(comm::Runtime& runtime, comm::Endpoint& endpoint) {
  Backoff backoff;
  comm::Completion completion;
  for (;;) {
    if (endpoint.poll(completion)) {
      if (completion.op != comm::Op::recv) continue;
      endpoint.release(completion);
      return;
    }
    if (!runtime.progress()) backoff.idle();
  }
}

double latency(const Setup& setup, LazyRuntime& lazy, std::size_t bytes) {
  comm::Runtime& runtime = lazy.get();
  MPI_Barrier(MPI_COMM_WORLD);
  if (!setup.active()) {
    MPI_Barrier(MPI_COMM_WORLD);
    return 0;
  }
  comm::Endpoint& endpoint = lazy.endpoint(0);
  const int iterations = setup.latency_iterations(bytes);
  const int warmup = iterations / 10;
  std::vector<std::byte> out(bytes, std::byte{1});
  auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < warmup + iterations; ++i) {
    if (i == warmup) start = std::chrono::steady_clock::now();
    if (setup.rank == 0) {
      send(runtime, endpoint, 1, out);
      receive(runtime, endpoint);
    } else {
      receive(runtime, endpoint);
      send(runtime, endpoint, 0, out);
    }
  }
  const double elapsed = seconds_since(start);
  MPI_Barrier(MPI_COMM_WORLD);
  return elapsed * 1e6 / iterations / 2;
}

double rate(const Setup& setup, LazyRuntime& lazy, int threads) {
  comm::Runtime& runtime = lazy.get();
  MPI_Barrier(MPI_COMM_WORLD);
  if (!setup.active()) {
    MPI_Barrier(MPI_COMM_WORLD);
    return 0;
  }
  const int windows = setup.rate_windows();
  const int warmup = std::max(1, windows / 10);
  WarmupClock clock(threads);
  run_threads(threads, [&](int t) {
    comm::Endpoint& endpoint = lazy.endpoint(t);
    const std::vector<std::byte> message(rate_message_bytes, std::byte{7});
    const std::byte ack[1] = {std::byte{1}};
    for (int w = 0; w < warmup + windows; ++w) {
      if (w == warmup) clock.arrive();
      if (setup.rank == 0) {
        for (int m = 0; m < rate_window; ++m) send(runtime, endpoint, 1, message);
        receive(runtime, endpoint);  // the window's acknowledgement
      } else {
        for (int m = 0; m < rate_window; ++m) receive(runtime, endpoint);
        send(runtime, endpoint, 0, ack);
      }
    }
  });
  const double elapsed = clock.seconds();
  MPI_Barrier(MPI_COMM_WORLD);
  return static_cast<double>(threads) * windows * rate_window / elapsed;
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
#ifdef COURIER_HAVE_OFI
  variants.push_back(runtime_variant("courier-ofi", [] { return net::make_ofi_device(); }, true));
#endif
  return variants;
}

}  // namespace courier::bench
