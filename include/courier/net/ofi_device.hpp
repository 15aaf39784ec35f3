#pragma once
// The `ofi` transport: net::Device over a libfabric reliable-datagram (RDM) endpoint.
//
// Frames are tagged messages into a ring of pre-posted tagged receives, behind an 8-byte header
// that names the source rank (so no FI_SOURCE support is needed). Puts are RMA writes with remote CQ data
// (fi_writedata) into regions registered at expose time when the provider offers FI_RMA and
// remote CQ data; otherwise (or when asked) they are matched tagged sends into a tagged receive
// posted at expose time, the same rendezvous the mpi transport uses.
//
// Endpoint addresses are exchanged at start-up with MPI (MPI_Allgather of fi_getname), so MPI
// must be initialised (net::MpiEnvironment); barrier() is MPI_Barrier on a duplicate of `comm`.
// Creating and destroying a device are collective over `comm`.
#include <mpi.h>

#include <cstddef>
#include <memory>
#include <string>

#include "courier/net/device.hpp"

namespace courier::net {

enum class OfiPuts {
  automatic,  // RMA if the provider can, else tagged messages
  rma,        // RMA writes with remote CQ data; an error if the provider cannot
  tagged,     // matched tagged messages
};

struct OfiDeviceOptions {
  // The libfabric provider, e.g. "shm", "tcp" or "tcp;ofi_rxm". Empty: libfabric chooses, honouring
  // the FI_PROVIDER environment variable. `fi_info -l` lists the providers a machine has.
  std::string provider;
  OfiPuts puts = OfiPuts::automatic;
  MPI_Comm comm = MPI_COMM_WORLD;      // for start-up and barrier() only, duplicated
  std::size_t max_frame_bytes = 8192;  // size of each receive and send buffer
  std::size_t receive_buffers = 64;    // frames that may wait for progress() before senders stall
  std::size_t send_buffers = 64;       // frames in flight before try_send answers retry
  std::size_t max_puts = 64;           // puts in flight before try_put answers retry
  std::size_t max_exposed = 1024;      // regions exposed and not yet filled before try_expose retries
};

std::unique_ptr<Device> make_ofi_device(const OfiDeviceOptions& options = {});

// What the device chose, for logs and tests: the provider's name and whether puts use RMA.
struct OfiDescription {
  std::string provider;
  bool rma_puts = false;
};
OfiDescription describe_ofi_device(const Device& device);

}  // namespace courier::net
