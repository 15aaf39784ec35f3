#pragma once
// The communication layers the engine benchmark compares, made by name on a communicator: the
// lci layer on Courier's runtime over the mpi transport, its progress mode and messages chosen for
// the node as `courier run` chooses them (a progress server only when a hardware thread is spare;
// 16 KiB messages where ranks outnumber the hardware threads, else eager-sized ones), and
// variants: "lci-thread": always the server; "lci-explicit": never, the waiting compute threads
// progress; "lci-eager": eager-sized messages whatever the node;
// "lci-whole": one message per peer and phase instead of streamed eager-sized ones;
// "lci-eager-server": a server that polls as often as the waiting threads do instead of the lazy
// one; "lci-4k": 4 KiB frames on the mpi transport instead of 8 KiB; "lci-yN": waiting threads
// yield N times before they sleep; "lci-nap": they sleep at once, 50-200 us. And the two MPI
// baselines.
// Making one and the first synchronisation (MPI-RMA creates its windows there) are part of every
// timed run; closing one is not.
#include <mpi.h>

#include <memory>
#include <string>
#include <vector>

#include "courier/comm/runtime.hpp"
#include "courier/sync/channel.hpp"

namespace courier::bench {

inline const std::vector<std::string> kLayers{"lci", "mpi-probe", "mpi-rma"};

class Layer {
 public:
  // Collective over `comm`, whose ranks run `threads_per_rank` compute threads each. Throws
  // InputError for an unknown name.
  Layer(const std::string& name, MPI_Comm comm, unsigned threads_per_rank);
  ~Layer();  // collective: the channel, then the runtime under it
  Layer(const Layer&) = delete;
  Layer& operator=(const Layer&) = delete;

  sync::Channel& channel() { return *channel_; }

 private:
  std::unique_ptr<comm::Runtime> runtime_;
  std::unique_ptr<sync::Channel> channel_;
};

}  // namespace courier::bench
