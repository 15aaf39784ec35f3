#pragma once
// mpi-probe: the paper's two-sided MPI baseline (paper 000, III-B). One communication thread,
// owned by the channel, is the only thread that calls MPI; compute threads hand it messages
// through a thread-safe queue and take received ones from another. Sends are MPI_Isend of
// aggregated buffers, receives of unknown size are MPI_Iprobe(MPI_ANY_SOURCE) + MPI_Irecv, and
// MPI_Test completes both.
//
// Aggregation: a message below the eager limit waits, packed with any later ones for the same
// peer (of later phases: a phase has one message per peer), until the packed buffer reaches the
// eager limit or its oldest message is max_age old. Every message carries its phase number; one
// that arrives before its phase begins waits for it.
//
// Thread level: only the communication thread calls MPI, but it is not the thread that called
// MPI_Init_thread, so MPI_THREAD_FUNNELED is not enough by the letter of the standard: the channel
// needs MPI_THREAD_SERIALIZED, and MPI_THREAD_MULTIPLE if the program calls MPI itself while a
// channel lives or keeps two channels (two communication threads) alive at once; the constructor
// checks what it can (MPI_Query_thread, channels alive) and throws Error with the fix. Collectives (sum_all, max_all) run on the communication thread too, as
// MPI_Iallreduce on the channel's own duplicated communicator, tested while sends and receives
// keep progressing; so one thread issues every MPI call and the level above is enough.
#include <mpi.h>

#include <chrono>
#include <cstdint>
#include <memory>

#include "courier/sync/channel.hpp"

namespace courier::sync {

struct MpiProbeOptions {
  // Packed buffers at least this large are sent at once (Open MPI's shared-memory eager limit is
  // 4 KiB, its TCP one 64 KiB).
  std::size_t eager_limit = 8192;
  // A packed buffer is sent when its oldest message is this old; zero sends every message at once.
  std::chrono::microseconds max_age{50};
};

// What the aggregation did, on top of ChannelStats (which counts the messages handed to send()).
struct MpiProbeStats {
  std::uint64_t wire_messages = 0;    // MPI_Isend calls
  std::uint64_t wire_bytes = 0;       // bytes they carried, phase trailers included
  std::uint64_t flushes_by_size = 0;  // sent because the eager limit was reached
  std::uint64_t flushes_by_age = 0;   // sent because the oldest message timed out
  std::uint64_t flushes_at_close = 0; // sent by the destructor
};

class MpiProbeChannel : public Channel {
 public:
  // Collective over `comm` (duplicated, so the channel's traffic never meets the program's).
  static std::unique_ptr<MpiProbeChannel> create(MPI_Comm comm, MpiProbeOptions options = {});

  virtual MpiProbeOptions options() const = 0;
  virtual MpiProbeStats probe_stats() const = 0;
};

}  // namespace courier::sync
