// The ofi transport against the device checks, under mpirun -np 2, 3 and 4, on each provider
// this machine has (shm, tcp) and with both kinds of puts (RMA writes, tagged messages).
#include "courier/net/ofi_device.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "courier/core/error.hpp"
#include "courier/net/mpi_rank_nodes.hpp"
#include "net/device_checks.hpp"

namespace courier::net {
namespace {

struct Setting {
  std::string provider;
  OfiPuts puts;
};

std::string setting_name(const ::testing::TestParamInfo<Setting>& info) {
  return info.param.provider + (info.param.puts == OfiPuts::tagged ? "_tagged" : "_rma");
}

class OfiDeviceTest : public ::testing::TestWithParam<Setting> {
 protected:
  OfiDeviceOptions options() const {
    OfiDeviceOptions options;
    options.provider = GetParam().provider;
    options.puts = GetParam().puts;
    return options;
  }
};

TEST_P(OfiDeviceTest, DescribesItself) {
  auto device = make_ofi_device(options());
  int world_rank = 0;
  int world_size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &world_size);
  EXPECT_EQ(device->name(), "ofi");
  EXPECT_EQ(device->rank(), world_rank);
  EXPECT_EQ(device->ranks(), world_size);
  OfiDescription description = describe_ofi_device(*device);
  EXPECT_NE(description.provider.find(GetParam().provider), std::string::npos)
      << description.provider;
  EXPECT_EQ(description.rma_puts, GetParam().puts == OfiPuts::rma);
  // Nodes as the launcher placed the ranks, as the mpi transport reports them (one machine here).
  EXPECT_EQ(device->rank_nodes(), mpi_rank_nodes(MPI_COMM_WORLD));
  // libfabric is loaded by the first device (tests/net/libfabric_loading_test.cpp: not before).
  std::stringstream maps;
  maps << std::ifstream("/proc/self/maps").rdbuf();
  EXPECT_NE(maps.str().find("/libfabric.so"), std::string::npos);
}

TEST_P(OfiDeviceTest, RandomFramesArriveOnceAndIntact) {
  auto device = make_ofi_device(options());
  testing::check_random_frames(*device, 1000);
}

TEST_P(OfiDeviceTest, SmallFramesWithFewBuffers) {
  OfiDeviceOptions small = options();
  small.max_frame_bytes = 256;
  small.receive_buffers = 2;
  small.send_buffers = 2;
  auto device = make_ofi_device(small);
  testing::check_random_frames(*device, 500);
}

TEST_P(OfiDeviceTest, TrySendRetriesWhenEverySendBufferIsInFlight) {
  OfiDeviceOptions few = options();
  few.send_buffers = 4;
  auto device = make_ofi_device(few);
  testing::check_send_retry(*device, few.send_buffers, false);
}

TEST_P(OfiDeviceTest, PutsFrom0BTo1MiBArriveIntact) {
  auto device = make_ofi_device(options());
  testing::check_puts(*device);
}

TEST_P(OfiDeviceTest, PutsRetryWhenEveryPutSlotIsBusy) {
  OfiDeviceOptions one = options();
  one.max_puts = 1;
  auto device = make_ofi_device(one);
  for (int round = 0; round < 2; ++round) testing::check_puts(*device);
}

TEST_P(OfiDeviceTest, BarrierWaitsForEveryRank) {
  auto device = make_ofi_device(options());
  testing::check_barrier(*device);
}

INSTANTIATE_TEST_SUITE_P(Providers, OfiDeviceTest,
                         ::testing::Values(Setting{"shm", OfiPuts::rma},
                                           Setting{"shm", OfiPuts::tagged},
                                           Setting{"tcp", OfiPuts::rma},
                                           Setting{"tcp", OfiPuts::tagged}),
                         setting_name);

TEST(OfiDevice, UnknownProviderIsAClearError) {
  OfiDeviceOptions options;
  options.provider = "no-such-provider";
  try {
    make_ofi_device(options);
    FAIL() << "no exception";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("no-such-provider"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("FI_PROVIDER"), std::string::npos) << e.what();
  }
}

TEST(OfiDevice, DefaultProviderWorks) {
  auto device = make_ofi_device();
  testing::check_random_frames(*device, 200);
  testing::check_puts(*device);
}

}  // namespace
}  // namespace courier::net
