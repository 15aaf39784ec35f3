// The runtime's exactly-once check on the real transports, one MPI process per rank: the mpi
// transport, and the ofi transport where libfabric is built in. Counts are summed over ranks.
#include <mpi.h>

#include <gtest/gtest.h>

#include "comm/exactly_once.hpp"
#include "courier/net/mpi_device.hpp"
#ifdef COURIER_HAVE_OFI
#include "courier/net/ofi_device.hpp"
#endif

namespace comm = courier::comm;
using comm::testing::Plan;

namespace {

std::uint64_t sum_over_ranks(std::uint64_t value) {
  std::uint64_t total = 0;
  MPI_Allreduce(&value, &total, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
  return total;
}

void exactly_once(std::unique_ptr<courier::net::Device> device, int threads, int messages, bool progress_thread) {
  comm::RuntimeOptions options;
  options.progress_thread = progress_thread;
  options.packet_count = 256;
  comm::Runtime rt(std::move(device), options);
  const Plan plan{rt.ranks(), threads, messages};
  comm::testing::exchange_exactly_once(rt, plan, !progress_thread);
  rt.shutdown();
  const comm::Stats s = rt.stats();
  EXPECT_EQ(s.dropped, 0u);
  EXPECT_EQ(s.discarded, 0u);
  const std::uint64_t sent = sum_over_ranks(s.messages_sent), received = sum_over_ranks(s.messages_received);
  EXPECT_EQ(sent, static_cast<std::uint64_t>(rt.ranks()) * static_cast<std::uint64_t>(threads * messages));
  EXPECT_EQ(received, sent);
  EXPECT_EQ(sum_over_ranks(s.bytes_received), sum_over_ranks(s.bytes_sent));
  EXPECT_GT(sum_over_ranks(s.rendezvous_sent), 0u);
}

}  // namespace

TEST(CommOverMpi, ExactlyOnceWithProgressServer) { exactly_once(courier::net::make_mpi_device(), 2, 150, true); }
TEST(CommOverMpi, ExactlyOnceWithExplicitProgress) { exactly_once(courier::net::make_mpi_device(), 1, 150, false); }

#ifdef COURIER_HAVE_OFI
TEST(CommOverOfi, ExactlyOnceWithProgressServer) { exactly_once(courier::net::make_ofi_device(), 2, 150, true); }
#endif
