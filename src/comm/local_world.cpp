#include "courier/comm/local_world.hpp"

#include <algorithm>
#include <bit>
#include <exception>
#include <string>
#include <thread>
#include <vector>

#include "courier/core/error.hpp"
#include "courier/core/memory.hpp"

namespace courier::comm {

namespace {

// Ranks as threads share this process's memory, so their packet pools share a budget: up to 16
// ranks keep the default pool, more get smaller ones (at least 64 packets), so that the pools of
// all ranks stay near 256 MiB whatever their number.
constexpr std::uint64_t pool_budget_bytes = std::uint64_t{256} << 20;
constexpr std::size_t min_pool_packets = 64;

}  // namespace

RuntimeOptions local_runtime_options(rank_t ranks, RuntimeOptions options, const net::LocalOptions& local) {
  if (std::optional<std::uint64_t> chaos = net::LocalOptions::chaos_from_environment()) {
    // Starved: two packets and two rendezvous slots per rank, so every post meets exhaustion.
    options.packet_count = 2;
    options.max_rendezvous = 2;
    return options;
  }
  const std::size_t eager = std::min(options.eager_bytes, local.frame_bytes);
  const std::uint64_t packet = eager + 64;
  const std::uint64_t fits = pool_budget_bytes / (static_cast<std::uint64_t>(std::max(ranks, 1)) * packet);
  const std::size_t cap = std::max<std::size_t>(min_pool_packets, std::bit_floor(std::max<std::uint64_t>(fits, 1)));
  options.packet_count = std::min(options.packet_count, cap);
  options.queue_packets = std::min(options.queue_packets, options.packet_count);
  return options;
}

void run_local(rank_t ranks, const std::function<void(Runtime&)>& body, RuntimeOptions options,
               net::LocalOptions local) {
  if (ranks < 1 || ranks > max_local_ranks) {
    throw InputError("the local transport runs from 1 to " + std::to_string(max_local_ranks) +
                     " ranks as threads of one process, not " + std::to_string(ranks) +
                     "; run more ranks as processes under mpirun");
  }
  options = local_runtime_options(ranks, options, local);
  const auto n = static_cast<std::uint64_t>(ranks);
  check_memory(
      "the communication state of " + std::to_string(ranks) +
          " ranks as threads (local transport: inboxes, frame pools, packet pools, per-peer state)",
      net::LocalOptions::estimate_bytes(ranks, local) + n * Runtime::estimate_bytes(ranks, options, local.frame_bytes));
  net::LocalFabric fabric(ranks, local);
  std::vector<std::unique_ptr<net::Device>> devices;
  for (rank_t r = 0; r < ranks; ++r) devices.push_back(fabric.device(r));
  std::vector<std::exception_ptr> errors(static_cast<std::size_t>(ranks));
  std::vector<std::thread> threads;
  for (rank_t r = 0; r < ranks; ++r) {
    threads.emplace_back([&, r] {
      auto& error = errors[static_cast<std::size_t>(r)];
      try {
        Runtime runtime(std::move(devices[static_cast<std::size_t>(r)]), options);
        try {
          body(runtime);
        } catch (...) {
          error = std::current_exception();
        }
        runtime.shutdown();
      } catch (...) {
        if (!error) error = std::current_exception();
      }
    });
  }
  for (auto& t : threads) t.join();
  for (auto& error : errors) {
    if (error) std::rethrow_exception(error);
  }
}

}  // namespace courier::comm
