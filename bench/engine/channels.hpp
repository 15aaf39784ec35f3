#pragma once
// The sync channels the engine benchmark compares, by name, as sync::Stack specs: the lci
// channel on Courier's runtime over the mpi transport, its progress mode and messages chosen for
// the node as `courier run` chooses them (a progress server only when a hardware thread is spare;
// 16 KiB messages where ranks outnumber the hardware threads, else eager-sized ones), and
// variants: "lci-thread": always the server; "lci-explicit": never, the waiting compute threads
// progress; "lci-eager": eager-sized messages whatever the node;
// "lci-whole": one message per peer and phase instead of streamed eager-sized ones;
// "lci-eager-server": a server that polls as often as the waiting threads do instead of the lazy
// one; "lci-4k": 4 KiB frames on the mpi transport instead of 8 KiB; "lci-yN": waiting threads
// yield N times before they sleep; "lci-nap": they sleep at once, 50-200 us; "lci-wN": a window of
// N messages; "lci-mN": messages of N KiB; "lci-unbounded": no flow control; "lci-64k": 64 KiB
// messages by rendezvous. And the two MPI baselines.
// Opening one (sync::Stack::open) and the first synchronisation (MPI-RMA creates its windows
// there) are part of every timed run; closing one is not.
#include <string>
#include <vector>

#include "courier/sync/stack.hpp"

namespace courier::bench {

inline const std::vector<std::string> kChannels{"lci", "mpi-probe", "mpi-rma"};

// The stack spec of channel `name` for ranks of `threads_per_rank` compute threads. InputError for
// an unknown name.
sync::StackSpec channel_spec(const std::string& name, unsigned threads_per_rank);

}  // namespace courier::bench
