// The mpi transport against the device checks, under mpirun -np 2, 3 and 4.
#include "courier/net/mpi_device.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "courier/core/error.hpp"
#include "courier/net/mpi_environment.hpp"
#include "courier/net/mpi_rank_nodes.hpp"
#include "net/device_checks.hpp"

namespace courier::net {
namespace {

TEST(MpiDevice, DescribesItself) {
  auto device = make_mpi_device();
  int world_rank = 0;
  int world_size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &world_size);
  EXPECT_EQ(device->name(), "mpi");
  EXPECT_EQ(device->rank(), world_rank);
  EXPECT_EQ(device->ranks(), world_size);
  EXPECT_EQ(device->max_frame_bytes(), MpiDeviceOptions{}.max_frame_bytes);
}

// One machine: every rank on the node of rank 0, as the launcher placed them.
TEST(MpiDevice, RanksOfOneMachineShareNodeZero) {
  auto device = make_mpi_device();
  EXPECT_EQ(device->rank_nodes(), std::vector<int>(static_cast<std::size_t>(device->ranks()), 0));
}

// Several nodes acted out by a split of the world in pairs, listed backwards: every rank is named
// by the lowest rank of its pair, on every rank alike.
TEST(MpiRankNodes, EachGroupIsNamedByItsLowestRank) {
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm pairs = MPI_COMM_NULL;
  ASSERT_EQ(MPI_Comm_split(MPI_COMM_WORLD, rank / 2, size - rank, &pairs), MPI_SUCCESS);
  const std::vector<int> leaders = group_leaders(MPI_COMM_WORLD, pairs);
  MPI_Comm_free(&pairs);
  ASSERT_EQ(leaders.size(), static_cast<std::size_t>(size));
  for (int r = 0; r < size; ++r) EXPECT_EQ(leaders[static_cast<std::size_t>(r)], r - r % 2) << "rank " << r;
}

TEST(MpiDevice, GrantsThreadMultiple) {
  MpiEnvironment already;  // MPI is up: this one must neither init nor finalise
  EXPECT_FALSE(already.owns_mpi());
  EXPECT_TRUE(already.thread_multiple()) << already.thread_level_name();
}

TEST(MpiDevice, RejectsBadOptions) {
  MpiDeviceOptions options;
  options.max_frame_bytes = 0;
  EXPECT_THROW(make_mpi_device(options), Error);
  options = {};
  options.send_buffers = 0;
  EXPECT_THROW(make_mpi_device(options), Error);
}

TEST(MpiDevice, RejectsOversizedFramesAndBadRanks) {
  MpiDeviceOptions options;
  options.max_frame_bytes = 128;
  auto device = make_mpi_device(options);
  std::vector<std::byte> frame(129);
  EXPECT_THROW(device->try_send(0, frame), Error);
  EXPECT_THROW(device->try_send(device->ranks(), std::span(frame).first(8)), Error);
  device->barrier();
}

TEST(MpiDevice, RandomFramesArriveOnceAndIntact) {
  auto device = make_mpi_device();
  testing::check_random_frames(*device, 2000);
}

TEST(MpiDevice, SmallFramesWithFewBuffers) {
  MpiDeviceOptions options;
  options.max_frame_bytes = 256;
  options.receive_buffers = 2;
  options.send_buffers = 2;
  auto device = make_mpi_device(options);
  testing::check_random_frames(*device, 1000);
}

TEST(MpiDevice, TrySendRetriesWhenEverySendBufferIsInFlight) {
  MpiDeviceOptions options;
  options.send_buffers = 4;
  auto device = make_mpi_device(options);
  testing::check_send_retry(*device, options.send_buffers, true);
}

TEST(MpiDevice, PutsFrom0BTo1MiBArriveIntact) {
  auto device = make_mpi_device();
  testing::check_puts(*device);
}

TEST(MpiDevice, PutsRetryWhenEveryPutSlotIsBusy) {
  MpiDeviceOptions options;
  options.max_puts = 1;
  auto device = make_mpi_device(options);
  testing::check_puts(*device);
}

TEST(MpiDevice, ExposedRegionsReuseTagsSafely) {
  // Many rounds of puts: tags are released and handed out again without crossing regions.
  auto device = make_mpi_device();
  for (int round = 0; round < 5; ++round) testing::check_puts(*device);
}

TEST(MpiDevice, BarrierWaitsForEveryRank) {
  auto device = make_mpi_device();
  testing::check_barrier(*device);
}

}  // namespace
}  // namespace courier::net
