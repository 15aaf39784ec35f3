#include "engine/layers.hpp"

#include <cstdio>

#include "courier/core/error.hpp"
#include "courier/net/mpi_device.hpp"
#include "courier/sync/lci_channel.hpp"
#include "courier/sync/mpi_channel.hpp"

namespace courier::bench {

Layer::Layer(const std::string& name, MPI_Comm comm) {
  if (name == "lci" || name == "lci-explicit" || name == "lci-whole") {
    comm::RuntimeOptions options = sync::LciChannel::runtime_options();
    options.progress_thread = name != "lci-explicit";
    runtime_ = std::make_unique<comm::Runtime>(net::make_mpi_device({.comm = comm}), options);
    channel_ = std::make_unique<sync::LciChannel>(*runtime_, name != "lci-whole");
    return;
  }
  if (name == "mpi-probe" || name == "mpi-rma") {
    channel_ = sync::make_mpi_channel(name, comm);
    return;
  }
  throw InputError("engine_bench: no layer '" + name + "' (choose from lci, lci-explicit, lci-whole, mpi-probe, mpi-rma)");
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
