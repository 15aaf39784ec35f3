// The rest of LCI's interface (paper 002, issue 19) on the local transport: receives into the
// caller's buffers, endpoints addressed across ranks, the synchronizer's compile-time form. The
// collective checks (lci_interface.hpp) run here on 3 ranks as threads and under mpirun in
// tests/comm/mpi; the cases below pin down orders and answers that need one thread driving both
// ranks.
#include "comm/lci_interface.hpp"

#include <gtest/gtest.h>

#include <type_traits>

#include "courier/comm/local_world.hpp"
#include "courier/core/error.hpp"
#include "world.hpp"

namespace lci_interface_test {

namespace comm = courier::comm;
using comm::testing::CountingAllocator;
using comm::testing::holds_pattern;
using comm::testing::pattern_bytes;
using comm::testing::World;

namespace {

comm::RuntimeOptions explicit_progress() {
  comm::RuntimeOptions options;
  options.progress_thread = false;
  options.eager_bytes = 1024;
  return options;
}

void rounds(World& world, int n) {
  for (int i = 0; i < n; ++i) {
    world[0].progress();
    world[1].progress();
  }
}

comm::Endpoint& matching_endpoint(comm::Runtime& rt, comm::Allocator* allocator) {
  comm::EndpointOptions options;
  options.match_tags = true;
  options.allocator = allocator;
  return rt.create_endpoint(options);
}

// Lets the ranks progress until they have no more to do (a world's shutdown needs both).
void finish(World& world) {
  world.run([](comm::Runtime&) {});
}

}  // namespace

TEST(CommLciInterface, ExplicitReceivesWithProgressServer) {
  comm::run_local(3, [](comm::Runtime& rt) { comm::testing::explicit_receives(rt); });
}

TEST(CommLciInterface, ExplicitReceivesWithExplicitProgress) {
  comm::RuntimeOptions options;
  options.progress_thread = false;
  comm::run_local(
      3, [](comm::Runtime& rt) { comm::testing::explicit_receives(rt); }, options);
}

TEST(CommLciInterface, EndpointsAddressedAcrossRanks) {
  comm::run_local(3, [](comm::Runtime& rt) { comm::testing::cross_endpoints(rt); });
}

TEST(CommLciInterface, EndpointsAddressedAcrossRanksWithExplicitProgress) {
  comm::RuntimeOptions options;
  options.progress_thread = false;
  comm::run_local(
      3, [](comm::Runtime& rt) { comm::testing::cross_endpoints(rt); }, options);
}

TEST(CommLciInterface, BothSynchronizerForms) {
  comm::run_local(3, [](comm::Runtime& rt) { comm::testing::both_synchronizer_forms(rt, 200); });
}

// A message that arrived before its recv: recv answers done at once, copying it out of the
// allocator's memory (freed then), truncated to the buffer if larger.
TEST(CommLciInterface, ArrivedFirstIsCopiedAndFreed) {
  World world(2, explicit_progress());
  CountingAllocator allocator;
  comm::Endpoint& sender = matching_endpoint(world[0], nullptr);
  comm::Endpoint& receiver = matching_endpoint(world[1], &allocator);
  const auto small = pattern_bytes(1, 300), large = pattern_bytes(2, 5000);
  ASSERT_EQ(sender.send(1, 1, small), comm::Post::done);
  ASSERT_EQ(sender.send(1, 2, large), comm::Post::posted);
  rounds(world, 20);
  EXPECT_EQ(allocator.allocated.load(), 2);
  std::vector<std::byte> whole(300), part(100, std::byte{0xee});
  int context = 0;
  comm::Completion c;
  ASSERT_EQ(receiver.recv(0, 1, whole, &context, &c), comm::Post::done);
  EXPECT_TRUE(c.caller_buffer);
  EXPECT_FALSE(c.truncated);
  EXPECT_EQ(c.data, whole.data());
  EXPECT_EQ(c.size, 300u);
  EXPECT_EQ(c.context, &context);
  EXPECT_EQ(c.endpoint, sender.id());
  EXPECT_EQ(whole, small);
  ASSERT_EQ(receiver.recv(0, 2, std::span(part).first(60), nullptr, &c), comm::Post::done);
  EXPECT_TRUE(c.truncated);
  EXPECT_EQ(c.size, 60u);
  EXPECT_TRUE(holds_pattern(part.data(), 2, 60));
  EXPECT_EQ(part[60], std::byte{0xee});
  receiver.release(c);  // a caller's buffer: nothing to give back
  EXPECT_EQ(allocator.freed.load(), 2);
  finish(world);
}

// Messages with one source and tag match recvs in first-packet order, even when the first is a
// rendezvous still in flight (its data not landed) as the second, eager, arrives for a recv
// posted in between: the second must wait for the second recv, not jump into the first's buffer.
TEST(CommLciInterface, RecvsMatchInFirstPacketOrderWhileARendezvousIsInFlight) {
  World world(2, explicit_progress());
  CountingAllocator allocator;
  comm::Endpoint& sender = matching_endpoint(world[0], nullptr);
  comm::Endpoint& receiver = matching_endpoint(world[1], &allocator);
  const auto first = pattern_bytes(3, 4000), second = pattern_bytes(4, 50);
  ASSERT_EQ(sender.send(1, 7, first), comm::Post::posted);
  world[0].progress();  // RTS out
  world[1].progress();  // RTS in: nobody waits for it, so it is allocated and exposed; RTR out
  std::vector<std::byte> a(4000), b(4000);
  comm::Completion c;
  int first_context = 1, second_context = 2;
  ASSERT_EQ(receiver.recv(0, 7, a, &first_context, &c), comm::Post::posted);
  ASSERT_EQ(sender.send(1, 7, second), comm::Post::done);
  ASSERT_EQ(receiver.recv(0, 7, b, &second_context, &c), comm::Post::posted);
  std::vector<comm::Completion> got;
  for (int i = 0; i < 100 && got.size() < 2; ++i) {
    rounds(world, 1);
    while (receiver.poll(c)) got.push_back(c);
  }
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0].context, &first_context);
  EXPECT_EQ(got[0].size, first.size());
  EXPECT_TRUE(holds_pattern(a.data(), 3, first.size())) << "the first message is not in the first recv's buffer";
  EXPECT_EQ(got[1].context, &second_context);
  EXPECT_EQ(got[1].size, second.size());
  EXPECT_TRUE(holds_pattern(b.data(), 4, second.size())) << "the second message is not in the second recv's buffer";
  EXPECT_EQ(allocator.allocated.load(), allocator.freed.load());
  finish(world);
}

// The receiver's endpoints differ from the sender's: a send names any endpoint of the peer; one
// not created yet holds the message until it is.
TEST(CommLciInterface, SendToAnEndpointCreatedLater) {
  World world(2, explicit_progress());
  comm::Endpoint& from = world[0].create_endpoint({});  // id 1 on rank 0
  const auto message = pattern_bytes(5, 40);
  ASSERT_EQ(from.send({1, 3}, 9, message), comm::Post::done);
  rounds(world, 10);
  comm::Endpoint& one = world[1].create_endpoint({});
  world[1].create_endpoint({});
  comm::Endpoint& three = world[1].create_endpoint({});
  ASSERT_EQ(three.id(), 3);
  comm::Completion c;
  bool arrived = false;
  for (int i = 0; i < 100 && !arrived; ++i) arrived = three.poll(c);
  ASSERT_TRUE(arrived);
  EXPECT_EQ(c.rank, 0);
  EXPECT_EQ(c.endpoint, 1);
  EXPECT_EQ(c.tag, 9u);
  EXPECT_TRUE(holds_pattern(c.data, 5, 40));
  three.release(c);
  // The rank-only form still goes to the endpoint with the sender's id.
  ASSERT_EQ(from.send(1, 10, message), comm::Post::done);
  arrived = false;
  for (int i = 0; i < 100 && !arrived; ++i) {
    world[0].progress();
    arrived = one.poll(c);
  }
  ASSERT_TRUE(arrived);
  EXPECT_EQ(c.tag, 10u);
  EXPECT_EQ(c.endpoint, 1);
  one.release(c);
  EXPECT_THROW(from.send({1, static_cast<comm::endpoint_id>(comm::max_endpoints)}, 1, message), courier::Error);
  EXPECT_THROW(from.send({2, 0}, 1, message), courier::Error);
  finish(world);
}

// The compile-time form takes any type with signal() -- no base class needed -- and is chosen by
// the type named; the abstract class keeps the runtime form.
TEST(CommLciInterface, SynchronizerFormFollowsTheTypeNamed) {
  static_assert(std::is_constructible_v<comm::SynchronizerRef, comm::testing::Tally*>);
  static_assert(!std::is_polymorphic_v<comm::testing::Tally>);
  static_assert(!std::is_constructible_v<comm::SynchronizerRef, int*>);
  comm::testing::Tally tally;
  comm::Counter counter;
  comm::Flag flag;
  EXPECT_TRUE(comm::SynchronizerRef(&tally).compile_time());
  EXPECT_TRUE(comm::SynchronizerRef(&counter).compile_time());
  EXPECT_TRUE(comm::SynchronizerRef(&flag).compile_time());
  EXPECT_FALSE(comm::SynchronizerRef(static_cast<comm::Synchronizer*>(&counter)).compile_time());
  EXPECT_FALSE(static_cast<bool>(comm::SynchronizerRef(nullptr)));
  EXPECT_FALSE(static_cast<bool>(comm::SynchronizerRef(static_cast<comm::Counter*>(nullptr))));
  // Both forms reach the object.
  comm::Completion c;
  c.tag = 4;
  comm::SynchronizerRef(&counter).signal(c);
  comm::SynchronizerRef(static_cast<comm::Synchronizer*>(&counter)).signal(c);
  EXPECT_EQ(counter.count(), 2u);
  EXPECT_EQ(counter.last().tag, 4u);
  comm::EndpointOptions options;
  options.completion = comm::CompletionKind::synchronizer;
  comm::run_local(1, [&](comm::Runtime& rt) { EXPECT_THROW(rt.create_endpoint(options), courier::Error); });
}

}  // namespace lci_interface_test
