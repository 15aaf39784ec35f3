#pragma once
// Stack: one rank's communication stack, owned in one place. For the lci channel: the transport
// device (mpi or ofi under a launcher), Courier's runtime on it and the channel; for an MPI baseline (mpi-probe, mpi-rma): the
// channel alone. Engines, the CLI, the benchmarks and the tests open stacks here and nowhere else,
// so every one is made alike and closed in order (the channel, then the runtime's collective
// shutdown). It also gives dist/ its collective (an all-to-all over the channel).
//
//   auto stack = sync::Stack::open({.channel = "mpi-rma", .threads_per_rank = 2}, MPI_COMM_WORLD);
//   vertex::run(graph, stack->channel(), 2, algorithm);
//   stack->close();  // collective
#include <array>
#include <functional>
#include <memory>
#include <string>

#include "courier/comm/runtime.hpp"
#include "courier/dist/collective.hpp"
#include "courier/sync/channel.hpp"
#include "courier/sync/lci_channel.hpp"
#include "courier/sync/progress_mode.hpp"

#ifdef COURIER_HAVE_MPI
#include <mpi.h>

#include "courier/net/mpi_device.hpp"
#endif
#ifdef COURIER_HAVE_OFI
#include "courier/net/ofi_device.hpp"
#endif

namespace courier::sync {

struct StackSpec {
  std::string channel = "lci";                      // lci | mpi-probe | mpi-rma (the CLI's --channel)
  ProgressMode progress = ProgressMode::automatic;  // lci: who drives the runtime
  unsigned threads_per_rank = 1;                    // compute threads, for the progress budget
  // Adjusts what the lci channel's runtime and channel are made with, after they were chosen for
  // the budget (benchmark variants; the mailbox engine's plain runtime). Empty: as chosen.
  std::function<void(comm::RuntimeOptions&, LciOptions&)> tune{};
  // Under a launcher, the transport under the lci channel's runtime: mpi, or ofi (libfabric, where
  // it is built in; it starts up through MPI). Without one, ranks are threads on the local transport.
  std::string transport = "mpi";
#ifdef COURIER_HAVE_MPI
  net::MpiDeviceOptions device{};  // the mpi transport under the lci channel (comm is open()'s)
#endif
#ifdef COURIER_HAVE_OFI
  net::OfiDeviceOptions ofi{};  // the ofi transport, likewise
#endif
};

// The transport names StackSpec::transport accepts under a launcher.
inline constexpr std::array<std::string_view, 2> transport_names{"mpi", "ofi"};

// The channel names open() accepts.
inline constexpr std::array<std::string_view, 3> channel_names{"lci", "mpi-probe", "mpi-rma"};

class Stack {
 public:
#ifdef COURIER_HAVE_MPI
  // This process is one rank of `comm`. Collective. InputError for an unknown channel.
  static std::unique_ptr<Stack> open(const StackSpec& spec, MPI_Comm comm);
#endif
  // Ranks as threads of one process: the runtime is comm::run_local's (made with
  // runtime_options(spec, budget)); the stack owns the channel on it. Collective.
  static std::unique_ptr<Stack> open(const StackSpec& spec, comm::Runtime& runtime, const ProgressBudget& budget);
  // InputError, naming the fix, where the second open() would refuse `spec`: for a check before the
  // ranks' threads start.
  static void check_local(const StackSpec& spec);
  // The runtime options of the lci channel's runtime for `budget` (spec.tune applied).
  static comm::RuntimeOptions runtime_options(const StackSpec& spec, const ProgressBudget& budget);
  // The budget of `ranks` ranks as threads of this process, `threads` compute threads each.
  static ProgressBudget local_budget(int ranks, unsigned threads);

  ~Stack();  // closes if close() was not called (collective: every rank must get here)
  Stack(const Stack&) = delete;
  Stack& operator=(const Stack&) = delete;

  Channel& channel() { return *channel_; }
  comm::Runtime* runtime() { return runtime_; }  // the lci channel's runtime; null for MPI baselines
  bool progress_thread() const;                  // the runtime has a progress server
  // An all-to-all over the channel, for dist/'s loading (sync::exchange_all).
  dist::Collective collective();
  // Collective: the channel, then the runtime it owns (if any). Idempotent.
  void close();

 private:
  Stack() = default;
  std::unique_ptr<comm::Runtime> owned_runtime_;
  comm::Runtime* runtime_ = nullptr;
  std::unique_ptr<Channel> channel_;
};

}  // namespace courier::sync
