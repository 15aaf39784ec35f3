// The MPI channels at MPI_THREAD_SERIALIZED, the least they need: one channel at a time works
// (its communication thread is the only thread calling MPI), a second one alive at once is
// refused with an Error that names the fix, since two communication threads would call MPI
// concurrently.
#include <mpi.h>

#include <gtest/gtest.h>

#include "courier/core/error.hpp"
#include "courier/sync/mpi_channel.hpp"
#include "support/mpi_gtest.hpp"

using namespace courier;
using namespace courier::sync;

class SerializedLevel : public ::testing::TestWithParam<const char*> {};

TEST_P(SerializedLevel, OneChannelWorksASecondAtOnceIsRefused) {
  const auto ranks = static_cast<std::uint64_t>(courier::test_support::world_size());
  auto channel = make_mpi_channel(GetParam(), MPI_COMM_WORLD);
  for (std::uint64_t round = 0; round < 20; ++round)
    EXPECT_EQ(channel->sum_all(round), ranks * round);
  EXPECT_THROW(make_mpi_channel("mpi-probe", MPI_COMM_WORLD), Error);
  EXPECT_THROW(make_mpi_channel("mpi-rma", MPI_COMM_WORLD), Error);
  channel.reset();
  // Once the first is gone, another may be made.
  auto next = make_mpi_channel(GetParam(), MPI_COMM_WORLD);
  EXPECT_EQ(next->max_all(static_cast<double>(next->rank())), static_cast<double>(ranks - 1));
}

INSTANTIATE_TEST_SUITE_P(Channels, SerializedLevel, ::testing::Values("mpi-probe", "mpi-rma"),
                         [](const auto& info) { return std::string(info.param) == "mpi-probe" ? "probe" : "rma"; });

int main(int argc, char** argv) {
  return courier::test_support::run_all_tests_under_mpi(argc, argv, MPI_THREAD_SERIALIZED);
}
