#include "courier/comm/local_world.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>

#include "courier/core/error.hpp"

namespace local_world_test {

namespace comm = courier::comm;

// The rank count and the estimated communication memory are checked before any thread starts.
TEST(LocalWorld, RefusesTooManyRanksAndTooLittleMemoryUpFront) {
  std::atomic<int> bodies{0};
  EXPECT_THROW(comm::run_local(comm::max_local_ranks + 1, [&](comm::Runtime&) { ++bodies; }), courier::InputError);
  ::setenv("COURIER_MEMORY_LIMIT", "1000000", 1);
  try {
    comm::run_local(64, [&](comm::Runtime&) { ++bodies; });
    ADD_FAILURE() << "64 ranks ran within 1 MB";
  } catch (const courier::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("64 ranks as threads"), std::string::npos) << e.what();
  }
  ::unsetenv("COURIER_MEMORY_LIMIT");
  EXPECT_EQ(bodies.load(), 0);
  comm::run_local(2, [&](comm::Runtime&) { ++bodies; });
  EXPECT_EQ(bodies.load(), 2);
}

// Ranks as threads share a budget for their packet pools; an explicit smaller pool is kept.
TEST(LocalWorld, PacketPoolsShareABudget) {
  const courier::net::LocalOptions local;
  comm::RuntimeOptions options;
  EXPECT_EQ(comm::local_runtime_options(4, options, local).packet_count, options.packet_count);
  const comm::RuntimeOptions many = comm::local_runtime_options(1024, options, local);
  EXPECT_EQ(many.packet_count, 64u);
  EXPECT_LE(many.queue_packets, many.packet_count);
  options.packet_count = 8;
  EXPECT_EQ(comm::local_runtime_options(1024, options, local).packet_count, 8u);
  // The estimate grows about linearly: per-peer state is small.
  const auto at = [&](int ranks) {
    return comm::Runtime::estimate_bytes(ranks, comm::local_runtime_options(ranks, {}, local), local.frame_bytes);
  };
  EXPECT_LT(at(1024), 2 * at(512));
  EXPECT_LT(at(1024) - at(512), std::uint64_t{512} * 1024);
}

}  // namespace local_world_test
