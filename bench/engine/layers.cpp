#include "engine/layers.hpp"

#include <cstdio>
#include <string>

#include "courier/core/error.hpp"
#include "courier/net/mpi_device.hpp"
#include "courier/sync/lci_channel.hpp"
#include "courier/sync/mpi_channel.hpp"
#include "courier/sync/wait.hpp"

namespace courier::bench {

Layer::Layer(const std::string& name, MPI_Comm comm, unsigned threads_per_rank) {
  // lci-wN: another window (lci-w4, lci-w64); not lci-whole.
  const bool window_variant = name.size() > 5 && name.starts_with("lci-w") &&
                              name.find_first_not_of("0123456789", 5) == std::string::npos;
  // lci-mN: messages of N KiB (the window as the layer chooses it for this node).
  const bool message_variant = name.size() > 5 && name.starts_with("lci-m") &&
                               name.find_first_not_of("0123456789", 5) == std::string::npos;
  // lci-yN: waiting threads yield N times (instead of 256) before they sleep.
  const bool yield_variant = name.size() > 5 && name.starts_with("lci-y") &&
                             name.find_first_not_of("0123456789", 5) == std::string::npos;
  if (name == "lci" || name == "lci-thread" || name == "lci-explicit" || name == "lci-whole" ||
      name == "lci-eager-server" || name == "lci-4k" || name == "lci-unbounded" || name == "lci-64k" ||
      name == "lci-nap" || name == "lci-eager" || window_variant || yield_variant || message_variant) {
    net::MpiDeviceOptions device_options{.comm = comm};
    if (name == "lci-4k") device_options.max_frame_bytes = 4096;  // within Open MPI vader's eager limit
    std::unique_ptr<net::Device> device = net::make_mpi_device(device_options);
    // The progress mode: chosen for this node (auto), unless the variant names one.
    sync::ProgressMode mode = sync::ProgressMode::automatic;
    if (name == "lci-thread" || name == "lci-eager-server") mode = sync::ProgressMode::thread;
    if (name == "lci-explicit") mode = sync::ProgressMode::explicit_calls;
    const sync::ProgressBudget budget = sync::process_budget(*device, threads_per_rank);
    comm::RuntimeOptions options = sync::LciChannel::runtime_options(mode, budget);
    if (name == "lci-eager-server") options.server_backoff = sync::kPhaseWait;
    runtime_ = std::make_unique<comm::Runtime>(std::move(device), options);
    // The messages as the layer chooses them for this node; lci-eager and lci-4k: eager-sized.
    sync::LciOptions lci = sync::LciChannel::options_for(budget);
    if (name == "lci-eager" || name == "lci-4k") lci = sync::LciOptions{};
    lci.stream = name != "lci-whole";
    if (name == "lci-unbounded") lci.window = 0;  // no receive-side flow control
    if (window_variant) lci.window = std::stoul(name.substr(5));
    if (message_variant) lci.message_bytes = std::stoul(name.substr(5)) * 1024;
    if (yield_variant) lci.wait.yields = static_cast<std::uint32_t>(std::stoul(name.substr(5)));
    if (name == "lci-nap")
      lci.wait = {.spins = 16,
                  .yields = 0,
                  .first_sleep = std::chrono::microseconds(50),
                  .max_sleep = std::chrono::microseconds(200)};
    if (name == "lci-64k") {  // streamed by rendezvous: fewer copies, a round trip per message
      lci.message_bytes = 64 * 1024;
      lci.window = 4;
    }
    channel_ = std::make_unique<sync::LciChannel>(*runtime_, lci);
    return;
  }
  if (name == "mpi-probe" || name == "mpi-rma") {
    channel_ = sync::make_mpi_channel(name, comm);
    return;
  }
  throw InputError("engine_bench: no layer '" + name + "' (choose from lci, lci-thread, lci-explicit, lci-eager, lci-whole, lci-eager-server, lci-4k, lci-unbounded, lci-wN, lci-mN, lci-yN, lci-nap, lci-64k, mpi-probe, mpi-rma)");
}

Layer::~Layer() {
  channel_.reset();
  if (runtime_) {
    try {
      runtime_->shutdown();
    } catch (const std::exception& error) {
      std::fprintf(stderr, "engine_bench: the runtime's shutdown failed: %s\n", error.what());
    }
  }
}

}  // namespace courier::bench
