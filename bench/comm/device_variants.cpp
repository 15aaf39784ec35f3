// The transports under comm/, used directly: frames for messages up to max_frame_bytes, and above
// that the rendezvous the runtime will use (the receiver exposes a region and announces it in a
// frame, the sender puts into it).
#include <memory>

#include "courier/net/mpi_device.hpp"
#include "device_driver.hpp"
#ifdef COURIER_HAVE_OFI
#include "courier/net/ofi_device.hpp"
#endif

namespace courier::bench {
namespace {

using DeviceFactory = std::function<std::unique_ptr<net::Device>()>;

// Devices are created at first use, which every rank reaches in the same order (creation is
// collective), and live until the variant table is destroyed, before MPI is finalised.
class LazyDevice {
 public:
  explicit LazyDevice(DeviceFactory factory) : factory_(std::move(factory)) {}
  DeviceDriver& get() {
    if (!driver_) driver_ = std::make_unique<DeviceDriver>(factory_());
    return *driver_;
  }

 private:
  DeviceFactory factory_;
  std::unique_ptr<DeviceDriver> driver_;
};

double frame_latency(const Setup& setup, DeviceDriver& driver, std::size_t bytes, int iterations,
                     int warmup) {
  std::vector<std::byte> frame(std::max<std::size_t>(bytes, 2));
  std::uint64_t expected = driver.data[0].load();
  auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < warmup + iterations; ++i) {
    if (i == warmup) start = std::chrono::steady_clock::now();
    if (setup.rank == 0) driver.send_kind(1, FrameKind::data, 0, frame);
    ++expected;
    driver.wait_until([&] { return driver.data[0].load(std::memory_order_acquire) >= expected; });
    if (setup.rank == 1) driver.send_kind(0, FrameKind::data, 0, frame);
  }
  return seconds_since(start);
}

double put_latency(const Setup& setup, DeviceDriver& driver, std::size_t bytes, int iterations,
                   int warmup) {
  std::vector<std::byte> out(bytes, std::byte{1});
  std::vector<std::byte> in(bytes);
  const int rounds = warmup + iterations;
  std::uint64_t sent = driver.puts_sent.load();
  std::uint64_t arrived = driver.puts_arrived.load();
  auto wait_sent = [&] {
    ++sent;
    driver.wait_until([&] { return driver.puts_sent.load(std::memory_order_acquire) >= sent; });
  };
  auto wait_arrived = [&] {
    ++arrived;
    driver.wait_until([&] { return driver.puts_arrived.load(std::memory_order_acquire) >= arrived; });
  };
  auto put_to_peer = [&] {
    driver.wait_until([&] { return driver.announced() > 0; });
    driver.put(setup.peer(), driver.take_announced(), out);
    wait_sent();
  };
  driver.expose_and_announce(setup.peer(), in);
  auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < rounds; ++i) {
    if (i == warmup) start = std::chrono::steady_clock::now();
    bool more = i + 1 < rounds;
    if (setup.rank == 0) {
      put_to_peer();
      wait_arrived();
      if (more) driver.expose_and_announce(1, in);
    } else {
      wait_arrived();
      if (more) driver.expose_and_announce(0, in);
      put_to_peer();
    }
  }
  return seconds_since(start);
}

double latency(const Setup& setup, LazyDevice& lazy, std::size_t bytes) {
  DeviceDriver& driver = lazy.get();
  driver.device().barrier();
  if (!setup.active()) {
    driver.device().barrier();
    return 0;
  }
  const int iterations = setup.latency_iterations(bytes);
  const int warmup = iterations / 10;
  double elapsed = bytes <= driver.device().max_frame_bytes()
                       ? frame_latency(setup, driver, bytes, iterations, warmup)
                       : put_latency(setup, driver, bytes, iterations, warmup);
  driver.device().barrier();
  return elapsed * 1e6 / iterations / 2;
}

double rate(const Setup& setup, LazyDevice& lazy, int threads) {
  DeviceDriver& driver = lazy.get();
  driver.device().barrier();
  if (!setup.active()) {
    driver.device().barrier();
    driver.device().barrier();
    return 0;
  }
  const int windows = setup.rate_windows();
  const int warmup = std::max(1, windows / 10);
  // The counters carry on from earlier runs: read where they stand before any peer can send.
  std::vector<std::uint64_t> data_base(threads);
  std::vector<std::uint64_t> ack_base(threads);
  for (int t = 0; t < threads; ++t) {
    data_base[t] = driver.data[t].load();
    ack_base[t] = driver.acks[t].load();
  }
  driver.device().barrier();
  WarmupClock clock(threads);
  run_threads(threads, [&](int t) {
    std::vector<std::byte> frame(rate_message_bytes);
    for (int w = 0; w < warmup + windows; ++w) {
      if (w == warmup) clock.arrive();
      if (setup.rank == 0) {
        for (int m = 0; m < rate_window; ++m) driver.send_kind(1, FrameKind::data, t, frame);
        std::uint64_t acks = ack_base[t] + w + 1;
        driver.wait_until([&] { return driver.acks[t].load(std::memory_order_acquire) >= acks; });
      } else {
        std::uint64_t arrived = data_base[t] + static_cast<std::uint64_t>(w + 1) * rate_window;
        driver.wait_until([&] { return driver.data[t].load(std::memory_order_acquire) >= arrived; });
        driver.send_kind(0, FrameKind::ack, t, frame);
      }
    }
  });
  double elapsed = clock.seconds();
  driver.device().barrier();
  return static_cast<double>(threads) * windows * rate_window / elapsed;
}

Variant device_variant(std::string name, DeviceFactory factory) {
  auto lazy = std::make_shared<LazyDevice>(std::move(factory));
  return {std::move(name),
          [lazy](const Setup& s, std::size_t bytes) { return latency(s, *lazy, bytes); },
          [lazy](const Setup& s, int threads) { return rate(s, *lazy, threads); }};
}

}  // namespace

std::vector<Variant> device_variants() {
  std::vector<Variant> variants;
  variants.push_back(device_variant("net-mpi", [] { return net::make_mpi_device(); }));
#ifdef COURIER_HAVE_OFI
  // FI_PROVIDER picks the provider (shm on one machine, tcp across machines).
  variants.push_back(device_variant("net-ofi", [] { return net::make_ofi_device(); }));
#endif
  return variants;
}

}  // namespace courier::bench
