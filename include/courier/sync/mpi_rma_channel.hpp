#pragma once
// mpi-rma: the paper's one-sided MPI baseline (paper 000, III-C). reserve() creates receive
// windows sized for the worst case (every vertex active: the max_receive sizes): window s holds,
// on every rank r != s, one buffer for the messages r receives from s, so p ranks have p windows
// of p - 1 remote buffers each. A phase uses generalized active target synchronisation: each
// rank exposes its buffers for the sources of the phase (MPI_Win_post on their windows), opens
// one access epoch on its own window for the destinations (MPI_Win_start), MPI_Puts a size word
// and the message at the front of each destination's buffer, and closes it (MPI_Win_complete) once
// all are sent; MPI_Win_test on each source's window hands that source's message to the compute
// threads as soon as it is complete, so scatters start while other sources are still writing.
//
// Windows are sized per source for the largest reserve() so far; a larger one recreates (only)
// the windows that must grow, on all ranks together. The paper keeps one set per pattern and
// datatype; one set sized for the largest is a lower bound on that footprint.
// ChannelStats::setup_seconds is the time spent creating windows, buffer_bytes_peak counts the
// windows plus the buffers messages are gathered into and copied out to (Bytes must own memory).
//
// A sent buffer is recycled once MPI_Win_complete returns, or, under an MPI whose puts outlive it
// (MPICH with ch4:ucx, see rma_channel.cpp), at the next collective (sum_all, max_all, reserve).
//
// Thread level: the paper's channel puts from compute threads and polls from a helper thread, so it
// needs MPI_THREAD_MULTIPLE. Here one communication thread issues every MPI call (puts handed to it
// through a queue, window tests, collectives), which is simpler to reason about and needs only
// MPI_THREAD_SERIALIZED (MULTIPLE if the program calls MPI itself while a channel lives, or keeps
// two channels alive at once); its
// polling with MPI_Win_test also drives the progress the paper's helper thread gets from
// MPI_Iprobe.
#include <mpi.h>

#include <cstdint>
#include <memory>

#include "courier/sync/channel.hpp"

namespace courier::sync {

class MpiRmaChannel : public Channel {
 public:
  // Collective over `comm` (duplicated for the channel's windows and collectives).
  static std::unique_ptr<MpiRmaChannel> create(MPI_Comm comm);

  // Bytes of window memory on this rank now (size words included).
  virtual std::uint64_t window_bytes() const = 0;
};

}  // namespace courier::sync
