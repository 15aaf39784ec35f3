#include "courier/sync/stack.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "courier/core/error.hpp"
#include "courier/sync/exchange.hpp"
#ifdef COURIER_HAVE_MPI
#include "courier/sync/mpi_channel.hpp"
#endif

namespace courier::sync {

namespace {

void check_name(const std::string& name) {
  if (std::ranges::find(channel_names, name) == channel_names.end())
    throw InputError(fmt::format("no channel '{}': choose one of {}", name, fmt::join(channel_names, ", ")));
}

LciOptions lci_options(const StackSpec& spec, const ProgressBudget& budget) {
  comm::RuntimeOptions ignored;
  LciOptions lci = LciChannel::options_for(budget);
  if (spec.tune) spec.tune(ignored, lci);
  return lci;
}

// A transport other than the default only under the lci channel, where a runtime has a device.
void check_transport(const StackSpec& spec) {
  if (std::ranges::find(transport_names, spec.transport) == transport_names.end())
    throw InputError(fmt::format("no transport '{}': choose one of {}", spec.transport, fmt::join(transport_names, ", ")));
  if (spec.transport != "mpi" && spec.channel != "lci")
    throw InputError(fmt::format("the {} transport carries the lci channel; --channel {} is MPI's own", spec.transport,
                                 spec.channel));
}

}  // namespace

comm::RuntimeOptions Stack::runtime_options(const StackSpec& spec, const ProgressBudget& budget) {
  comm::RuntimeOptions options = LciChannel::runtime_options(spec.progress, budget);
  LciOptions ignored;
  if (spec.tune) spec.tune(options, ignored);
  return options;
}

ProgressBudget Stack::local_budget(int ranks, unsigned threads) {
  return {.ranks_on_node = ranks, .threads_per_rank = threads, .ranks_in_process = ranks};
}

#ifdef COURIER_HAVE_MPI
std::unique_ptr<Stack> Stack::open(const StackSpec& spec, MPI_Comm comm) {
  check_name(spec.channel);
  std::unique_ptr<Stack> stack(new Stack());
  check_transport(spec);
  if (spec.channel == "lci") {
    std::unique_ptr<net::Device> device;
    if (spec.transport == "ofi") {
#ifdef COURIER_HAVE_OFI
      net::OfiDeviceOptions ofi = spec.ofi;
      ofi.comm = comm;
      device = net::make_ofi_device(ofi);
#else
      throw InputError("the ofi transport: this courier was built without libfabric; use the mpi transport");
#endif
    } else {
      net::MpiDeviceOptions device_options = spec.device;
      device_options.comm = comm;
      device = net::make_mpi_device(device_options);
    }
    const ProgressBudget budget = process_budget(*device, spec.threads_per_rank);
    stack->owned_runtime_ = std::make_unique<comm::Runtime>(std::move(device), runtime_options(spec, budget));
    stack->runtime_ = stack->owned_runtime_.get();
    stack->channel_ = std::make_unique<LciChannel>(*stack->runtime_, lci_options(spec, budget));
  } else {
    stack->channel_ = make_mpi_channel(spec.channel, comm);
  }
  return stack;
}
#endif

void Stack::check_local(const StackSpec& spec) {
  check_name(spec.channel);
  if (spec.channel != "lci")
    throw InputError(
        fmt::format("--channel {} needs MPI: run courier under mpirun (without a launcher, ranks are "
                    "threads of one process and talk through --channel lci)",
                    spec.channel));
  check_transport(spec);
  if (spec.transport != "mpi")
    throw InputError(fmt::format("the {} transport runs between processes: run courier under mpirun (without a "
                                 "launcher, ranks are threads of one process on the local transport)",
                                 spec.transport));
}

std::unique_ptr<Stack> Stack::open(const StackSpec& spec, comm::Runtime& runtime, const ProgressBudget& budget) {
  check_local(spec);
  std::unique_ptr<Stack> stack(new Stack());
  stack->runtime_ = &runtime;
  stack->channel_ = std::make_unique<LciChannel>(runtime, lci_options(spec, budget));
  return stack;
}

Stack::~Stack() {
  try {
    close();
  } catch (...) {
    // A failed shutdown during unwinding: the error that unwinds is the one to report.
  }
}

bool Stack::progress_thread() const { return runtime_ != nullptr && runtime_->options().progress_thread; }

dist::Collective Stack::collective() { return sync::collective(*channel_); }

void Stack::close() {
  channel_.reset();  // before the runtime under it
  if (owned_runtime_) {
    std::unique_ptr<comm::Runtime> runtime = std::move(owned_runtime_);
    runtime_ = nullptr;
    runtime->shutdown();
  }
}

}  // namespace courier::sync
