#pragma once
// The `mpi` transport: net::Device over two-sided MPI on the device's own communicator.
//
// Frames land in a ring of persistent receives (MPI_Recv_init, any source, one fixed tag); try_send
// copies the frame into one of a bounded set of send buffers and starts an MPI_Isend, answering
// retry when every send buffer is in flight. A put is a matched rendezvous: try_expose posts an
// MPI_Irecv into the region from the origin with a tag unique to the region, and try_put sends the
// bytes with that tag. No probing, no wildcard tags, no RMA window: it works with any MPI.
//
// MPI must be initialised first (see net::MpiEnvironment). The device duplicates the communicator
// it is given, so its traffic never meets the caller's. Creating and destroying a device are
// collective over that communicator.
#include <mpi.h>

#include <cstddef>
#include <memory>

#include "courier/net/device.hpp"

namespace courier::net {

struct MpiDeviceOptions {
  MPI_Comm comm = MPI_COMM_WORLD;     // duplicated, never used directly
  std::size_t max_frame_bytes = 8192;  // size of each receive and send buffer
  std::size_t receive_buffers = 64;    // frames that may wait for progress() before senders stall
  std::size_t send_buffers = 64;       // frames in flight before try_send answers retry
  std::size_t max_puts = 64;           // puts in flight before try_put answers retry
  std::size_t max_exposed = 1024;      // regions exposed and not yet filled before try_expose retries
};

std::unique_ptr<Device> make_mpi_device(const MpiDeviceOptions& options = {});

}  // namespace courier::net
