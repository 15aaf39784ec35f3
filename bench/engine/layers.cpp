#include "engine/layers.hpp"

#include <cstdio>

#include "courier/core/error.hpp"
#include "courier/net/mpi_device.hpp"
#include "courier/sync/lci_channel.hpp"
#include "courier/sync/mpi_channel.hpp"
#include "courier/sync/wait.hpp"

namespace courier::bench {

Layer::Layer(const std::string& name, MPI_Comm comm) {
  if (name == "lci" || name == "lci-explicit" || name == "lci-whole" || name == "lci-eager-server" ||
      name == "lci-4k" || name == "lci-unbounded" || name == "lci-w64") {
    comm::RuntimeOptions options = sync::LciChannel::runtime_options();
    options.progress_thread = name != "lci-explicit";
    if (name == "lci-eager-server") options.server_backoff = sync::kPhaseWait;
    net::MpiDeviceOptions device{.comm = comm};
    if (name == "lci-4k") device.max_frame_bytes = 4096;  // within Open MPI vader's eager limit
    runtime_ = std::make_unique<comm::Runtime>(net::make_mpi_device(device), options);
    // lci-unbounded: no receive-side flow control (every early arrival lands in a layer buffer).
    const std::size_t window = name == "lci-unbounded" ? 0 : name == "lci-w64" ? 64 : sync::LciChannel::kDefaultWindow;
    channel_ = std::make_unique<sync::LciChannel>(*runtime_, name != "lci-whole", window);
    return;
  }
  if (name == "mpi-probe" || name == "mpi-rma") {
    channel_ = sync::make_mpi_channel(name, comm);
    return;
  }
  throw InputError("engine_bench: no layer '" + name + "' (choose from lci, lci-explicit, lci-whole, lci-eager-server, lci-4k, lci-unbounded, lci-w64, mpi-probe, mpi-rma)");
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
