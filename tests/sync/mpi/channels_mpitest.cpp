// The MPI channels (mpi-probe, mpi-rma) under the substrate, run as real MPI ranks (mpirun -np 2, 3,
// 4): every rank builds the whole small graph, partitions it in memory and keeps its own part, so
// each can work out what every proxy must hold. Named *_mpitest.cpp so the plain test glob of
// tests/sync leaves it to tests/sync/mpi/CMakeLists.txt, which runs it under mpirun.
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <limits>
#include <random>
#include <thread>

#include <gtest/gtest.h>

#include "courier/core/error.hpp"
#include "courier/core/random.hpp"
#include "courier/core/timer.hpp"
#include "courier/sync/mpi_channel.hpp"
#include "courier/sync/mpi_probe_channel.hpp"
#include "courier/sync/mpi_rma_channel.hpp"
#include "courier/sync/reduction.hpp"
#include "courier/sync/substrate.hpp"
#include "support/random_graph.hpp"
#include "support/mpi_gtest.hpp"

using namespace courier;
using namespace courier::sync;
using courier::dist::LocalGraph;
using courier::dist::local_t;
using courier::dist::Policy;
using courier::graph::EdgeList;
using courier::graph::vertex_t;
using courier::test_support::world_rank;
using courier::test_support::world_size;

using courier::test_support::random_graph;

namespace {

// A value every proxy of v on rank r starts with: different on every rank.
std::uint64_t initial(vertex_t v, int r) { return (v * 7919 + static_cast<vertex_t>(r) * 104729) % 1000 + 1; }

class MpiChannels : public ::testing::TestWithParam<const char*> {
 protected:
  std::unique_ptr<Channel> channel() { return make_mpi_channel(GetParam(), MPI_COMM_WORLD); }
};

std::string channel_name(const ::testing::TestParamInfo<const char*>& info) {
  return std::string(info.param) == "mpi-probe" ? "probe" : "rma";
}

}  // namespace

TEST_P(MpiChannels, ReduceMinThenBroadcastGivesEveryProxyTheMinimumOnEveryPolicy) {
  const int rank = world_rank(), ranks = world_size();
  const EdgeList g = random_graph(200, 1500, 11);
  for (Policy policy : {Policy::oec, Policy::iec, Policy::cvc, Policy::hash}) {
    SCOPED_TRACE(dist::to_string(policy));
    const auto parts = dist::partition_in_memory(g, policy, ranks, false);
    std::vector<std::uint64_t> expected(g.num_vertices, std::numeric_limits<std::uint64_t>::max());
    for (int r = 0; r < ranks; ++r)
      for (local_t l = 0; l < parts[r].proxies(); ++l) {
        const vertex_t v = parts[r].global_id(l);
        expected[v] = std::min(expected[v], initial(v, r));
      }
    const LocalGraph& graph = parts[rank];
    auto channel = this->channel();
    ThreadTeam team(2);
    Substrate substrate(graph, *channel, team);
    std::vector<std::uint64_t> value(graph.proxies());
    Bitset updated(graph.proxies());
    for (local_t l = 0; l < graph.proxies(); ++l) {
      value[l] = initial(graph.global_id(l), rank);
      updated.set(l);
    }
    substrate.reduce<Min>(value, updated);
    for (local_t m = graph.masters(); m < graph.proxies(); ++m) EXPECT_FALSE(updated.test(m));
    substrate.broadcast(value, updated);
    std::size_t wrong = 0;
    for (local_t l = 0; l < graph.proxies(); ++l) wrong += value[l] != expected[graph.global_id(l)];
    EXPECT_EQ(wrong, 0u) << "proxies with the wrong minimum";
    const ChannelStats stats = channel->stats();
    EXPECT_EQ(stats.phases, 2u);
    std::size_t peers = 0;
    for (int r = 0; r < ranks; ++r) peers += !graph.mirrors_owned_by(r).empty() + !graph.masters_mirrored_on(r).empty();
    EXPECT_EQ(stats.messages_sent, peers);
  }
}

TEST_P(MpiChannels, ReduceSumCountsEachMirrorOnceAndAPhaseWithNothingUpdatedChangesNothing) {
  const int rank = world_rank(), ranks = world_size();
  const EdgeList g = random_graph(100, 800, 5);
  const auto parts = dist::partition_in_memory(g, Policy::cvc, ranks, false);
  std::vector<double> expected(g.num_vertices, 0.0);
  for (int r = 0; r < ranks; ++r)
    for (local_t l = 0; l < parts[r].proxies(); ++l) expected[parts[r].global_id(l)] += 1.0;
  const LocalGraph& graph = parts[rank];
  auto channel = this->channel();
  ThreadTeam team(2);
  Substrate substrate(graph, *channel, team);
  std::vector<double> value(graph.proxies(), 1.0);
  Bitset updated(graph.proxies());
  for (local_t l = 0; l < graph.proxies(); ++l) updated.set(l);
  substrate.reduce<Sum>(value, updated);
  for (local_t m = graph.masters(); m < graph.proxies(); ++m) EXPECT_EQ(value[m], 0.0);
  updated.clear();
  substrate.reduce<Sum>(value, updated);
  EXPECT_FALSE(updated.any());
  substrate.broadcast(value, updated);
  EXPECT_FALSE(updated.any());
  for (local_t l = 0; l < graph.masters(); ++l) EXPECT_EQ(value[l], expected[graph.global_id(l)]);
  for (local_t m = graph.masters(); m < graph.proxies(); ++m) EXPECT_EQ(value[m], 0.0);
}

// Round after round with a different random set of updated proxies each time (none, a few, many,
// all), and a collective after each round as termination detection would do: every master must
// hold the minimum of what was written to its proxies, exactly the updated masters reach their
// mirrors, and the others keep what they had.
TEST_P(MpiChannels, ManyRoundsWithRandomUpdatedSets) {
  const int rank = world_rank(), ranks = world_size();
  const EdgeList g = random_graph(300, 2000, 17);
  const auto parts = dist::partition_in_memory(g, Policy::hash, ranks, false);
  const LocalGraph& graph = parts[rank];
  // Which ranks hold a proxy of each vertex.
  std::vector<std::vector<int>> holders(g.num_vertices);
  for (int r = 0; r < ranks; ++r)
    for (local_t l = 0; l < parts[r].proxies(); ++l) holders[parts[r].global_id(l)].push_back(r);
  const double densities[] = {0.0, 0.01, 0.1, 0.5, 1.0};
  auto written = [&](vertex_t v, int round, int r) {
    const double density = densities[round % 5];
    return static_cast<double>(counter_random(v * 64 + static_cast<vertex_t>(r), static_cast<std::uint64_t>(round)) >> 11) /
               9007199254740992.0 <
           density;
  };
  auto written_value = [&](vertex_t v, int round, int r) {
    return static_cast<std::uint32_t>(counter_random(v ^ 0x5eed, static_cast<std::uint64_t>(round * 8 + r)) % 100000);
  };

  auto channel = this->channel();
  ThreadTeam team(2);
  Substrate substrate(graph, *channel, team);
  constexpr std::uint32_t none = std::numeric_limits<std::uint32_t>::max();
  std::vector<std::uint32_t> value(graph.proxies());
  Bitset updated(graph.proxies());
  std::size_t wrong = 0;
  const int rounds = 40;
  for (int round = 0; round < rounds; ++round) {
    updated.clear();
    std::uint64_t writes = 0;
    for (local_t l = 0; l < graph.proxies(); ++l) {
      const vertex_t v = graph.global_id(l);
      value[l] = written(v, round, rank) ? written_value(v, round, rank) : none;
      if (value[l] != none) updated.set(l), ++writes;
    }
    const std::vector<std::uint32_t> before = value;
    substrate.reduce<Min>(value, updated);
    substrate.broadcast(value, updated);
    for (local_t l = 0; l < graph.proxies(); ++l) {
      const vertex_t v = graph.global_id(l);
      std::uint32_t minimum = none;
      for (int r : holders[v])
        if (written(v, round, r)) minimum = std::min(minimum, written_value(v, round, r));
      const int owner = graph.owner(l);
      const bool master_updated = written(v, round, owner) || minimum < (written(v, round, owner) ? written_value(v, round, owner) : none);
      if (graph.is_master(l)) {
        wrong += value[l] != minimum || updated.test(l) != master_updated;
      } else {
        wrong += value[l] != (master_updated ? minimum : before[l]) || updated.test(l) != master_updated;
      }
    }
    const std::uint64_t all_writes = channel->sum_all(writes);
    std::uint64_t expected_writes = 0;
    for (int r = 0; r < ranks; ++r)
      for (local_t l = 0; l < parts[r].proxies(); ++l) expected_writes += written(parts[r].global_id(l), round, r);
    wrong += all_writes != expected_writes;
  }
  EXPECT_EQ(wrong, 0u);
  EXPECT_EQ(channel->stats().phases, 2u * rounds);
}

TEST_P(MpiChannels, CollectivesAgreeOnEveryRank) {
  const int rank = world_rank();
  const auto ranks = static_cast<std::uint64_t>(world_size());
  auto channel = this->channel();
  EXPECT_EQ(channel->rank(), rank);
  EXPECT_EQ(channel->ranks(), static_cast<int>(ranks));
  EXPECT_EQ(channel->name(), GetParam());
  std::size_t wrong = 0;
  for (std::uint64_t round = 0; round < 100; ++round) {
    wrong += channel->sum_all(static_cast<std::uint64_t>(rank) + round) != ranks * round + ranks * (ranks - 1) / 2;
    wrong += channel->max_all(static_cast<double>(rank) * static_cast<double>(round)) !=
             static_cast<double>((ranks - 1) * round);
    wrong += channel->sum_all(0.5 * rank) != 0.25 * static_cast<double>(ranks * (ranks - 1));
  }
  EXPECT_EQ(wrong, 0u);
}

// The footprint counts every communication buffer; mpi-rma's is dominated by its windows, sized
// for every vertex active in both patterns whatever was actually sent.
TEST_P(MpiChannels, FootprintCountsTheBuffersAndRmaItsWorstCaseWindows) {
  const int rank = world_rank(), ranks = world_size();
  const EdgeList g = random_graph(400, 3000, 23);
  const auto parts = dist::partition_in_memory(g, Policy::cvc, ranks, false);
  const LocalGraph& graph = parts[rank];
  auto channel = this->channel();
  ThreadTeam team(2);
  Substrate substrate(graph, *channel, team);
  std::vector<std::uint64_t> value(graph.proxies(), 1);
  Bitset updated(graph.proxies());
  updated.set(0);  // almost nothing travels
  substrate.reduce<Max>(value, updated);
  substrate.broadcast(value, updated);
  const ChannelStats stats = channel->stats();
  EXPECT_GT(stats.buffer_bytes_peak, 0u);
  EXPECT_GE(stats.buffer_bytes_peak, stats.bytes_sent / std::max<std::uint64_t>(stats.messages_sent, 1));
  if (auto* rma = dynamic_cast<MpiRmaChannel*>(channel.get())) {
    std::uint64_t windows = 0;
    for (int s = 0; s < ranks; ++s) {
      if (s == rank) continue;
      const std::size_t largest = std::max(max_message_bytes(graph.masters_mirrored_on(s).size(), sizeof(std::uint64_t)),
                                           max_message_bytes(graph.mirrors_owned_by(s).size(), sizeof(std::uint64_t)));
      windows += (8 + (largest + 7) / 8 * 8 + 63) / 64 * 64;  // size word, message, in 64-byte granules
    }
    EXPECT_EQ(rma->window_bytes(), windows);
    EXPECT_GE(stats.buffer_bytes_peak, windows);
    EXPECT_GT(stats.setup_seconds, 0.0);
  }
}

// A label wider than the channel was reserved for reserves again: mpi-rma grows its windows (on
// every rank together) and the results stay right.
TEST_P(MpiChannels, AWiderLabelAfterANarrowOneGrowsTheWindows) {
  const int rank = world_rank(), ranks = world_size();
  const EdgeList g = random_graph(150, 1200, 29);
  const auto parts = dist::partition_in_memory(g, Policy::oec, ranks, false);
  std::vector<std::uint64_t> expected(g.num_vertices, 0);
  for (int r = 0; r < ranks; ++r)
    for (local_t l = 0; l < parts[r].proxies(); ++l) {
      const vertex_t v = parts[r].global_id(l);
      expected[v] = std::max(expected[v], initial(v, r));
    }
  const LocalGraph& graph = parts[rank];
  auto channel = this->channel();
  ThreadTeam team(2);
  Substrate substrate(graph, *channel, team);
  auto* rma = dynamic_cast<MpiRmaChannel*>(channel.get());
  std::uint64_t narrow_windows = 0;
  {
    std::vector<std::uint16_t> value(graph.proxies());
    Bitset updated(graph.proxies());
    for (local_t l = 0; l < graph.proxies(); ++l) value[l] = static_cast<std::uint16_t>(initial(graph.global_id(l), rank)), updated.set(l);
    substrate.reduce<Max>(value, updated);
    substrate.broadcast(value, updated);
    for (local_t l = 0; l < graph.proxies(); ++l) EXPECT_EQ(value[l], expected[graph.global_id(l)]);
    if (rma) narrow_windows = rma->window_bytes();
  }
  const double narrow_setup = channel->stats().setup_seconds;
  std::vector<std::uint64_t> value(graph.proxies());
  Bitset updated(graph.proxies());
  for (local_t l = 0; l < graph.proxies(); ++l) value[l] = initial(graph.global_id(l), rank) << 40, updated.set(l);
  substrate.reduce<Max>(value, updated);
  substrate.broadcast(value, updated);
  for (local_t l = 0; l < graph.proxies(); ++l) EXPECT_EQ(value[l], expected[graph.global_id(l)] << 40);
  if (rma && ranks > 1) {
    EXPECT_GT(rma->window_bytes(), narrow_windows);
    EXPECT_GT(channel->stats().setup_seconds, narrow_setup);
  }
}

INSTANTIATE_TEST_SUITE_P(Channels, MpiChannels, ::testing::Values("mpi-probe", "mpi-rma"), channel_name);

TEST(MpiChannelFactory, NamesTheChannelsAndRejectsOthers) {
  EXPECT_EQ(make_mpi_channel("mpi-probe", MPI_COMM_WORLD)->name(), "mpi-probe");
  EXPECT_EQ(make_mpi_channel("mpi-rma", MPI_COMM_WORLD)->name(), "mpi-rma");
  EXPECT_THROW(make_mpi_channel("lci", MPI_COMM_WORLD), InputError);
}

// ---- mpi-probe's aggregation: ranks 0 and 1 talk, the others take part in empty phases ----

namespace {

// One phase in which rank 0 sends `message` to rank 1; returns what rank 1 received.
Bytes one_way_phase(Channel& channel, const Bytes& message) {
  const int rank = channel.rank();
  const std::vector<rank_t> peer0{0}, peer1{1}, nobody;
  channel.begin_phase(rank == 0 ? peer1 : nobody, rank == 1 ? peer0 : nobody);
  Bytes received;
  if (rank == 0) {
    Bytes buffer = channel.acquire(message.size());
    buffer.assign(message.begin(), message.end());
    channel.send(1, std::move(buffer));
  } else if (rank == 1) {
    std::optional<Received> got;
    while (!(got = channel.try_receive())) std::this_thread::yield();
    EXPECT_EQ(got->source, 0);
    received = got->bytes;
    channel.release(std::move(got->bytes));
  }
  channel.end_phase();
  return received;
}

Bytes pattern(std::size_t bytes, int seed) {
  Bytes b(bytes);
  for (std::size_t i = 0; i < bytes; ++i) b[i] = static_cast<std::byte>((i * 31 + static_cast<std::size_t>(seed)) & 0xff);
  return b;
}

}  // namespace

TEST(MpiProbeAggregation, MessagesOfConsecutivePhasesShareOneWireMessageWithinTheAge) {
  auto channel = MpiProbeChannel::create(MPI_COMM_WORLD, {.eager_limit = 1 << 20, .max_age = std::chrono::milliseconds(300)});
  const Bytes first = pattern(40, 1), second = pattern(56, 2);
  const Bytes got_first = one_way_phase(*channel, first);
  const Bytes got_second = one_way_phase(*channel, second);
  channel->sum_all(std::uint64_t{0});  // rank 1 has both: rank 0 has flushed
  if (channel->rank() == 1) {
    EXPECT_EQ(got_first, first);
    EXPECT_EQ(got_second, second);
  }
  if (channel->rank() == 0) {
    const MpiProbeStats stats = channel->probe_stats();
    EXPECT_EQ(stats.wire_messages, 1u);
    EXPECT_EQ(stats.flushes_by_age, 1u);
    EXPECT_EQ(stats.flushes_by_size, 0u);
    EXPECT_EQ(channel->stats().messages_sent, 2u);
    EXPECT_EQ(stats.wire_bytes, first.size() + second.size() + 2 * 16);
  }
}

TEST(MpiProbeAggregation, AMessageAtTheEagerLimitGoesAtOnce) {
  auto channel = MpiProbeChannel::create(MPI_COMM_WORLD, {.eager_limit = 64, .max_age = std::chrono::seconds(20)});
  const Bytes message = pattern(100, 3);
  Timer timer;
  const Bytes got = one_way_phase(*channel, message);
  EXPECT_LT(timer.elapsed(), 10.0) << "waited for the age limit";
  channel->sum_all(std::uint64_t{0});
  if (channel->rank() == 1) {
    EXPECT_EQ(got, message);
  }
  if (channel->rank() == 0) {
    EXPECT_EQ(channel->probe_stats().flushes_by_size, 1u);
    EXPECT_EQ(channel->probe_stats().flushes_by_age, 0u);
  }
}

TEST(MpiProbeAggregation, ASmallMessageWaitsForTheAgeLimit) {
  const auto age = std::chrono::milliseconds(30);
  auto channel = MpiProbeChannel::create(MPI_COMM_WORLD, {.eager_limit = 1 << 20, .max_age = age});
  const int rank = channel->rank();
  const std::vector<rank_t> peer0{0}, peer1{1}, nobody;
  channel->begin_phase(rank == 0 ? peer1 : nobody, rank == 1 ? peer0 : nobody);
  if (rank == 0) {
    Timer timer;
    channel->send(1, pattern(8, 4));
    while (channel->probe_stats().wire_messages == 0) std::this_thread::yield();
    EXPECT_GE(timer.elapsed(), 0.030);
    EXPECT_EQ(channel->probe_stats().flushes_by_age, 1u);
  } else if (rank == 1) {
    std::optional<Received> got;
    while (!(got = channel->try_receive())) std::this_thread::yield();
    EXPECT_EQ(got->bytes, pattern(8, 4));
  }
  channel->end_phase();
}

TEST(MpiProbeAggregation, ZeroAgeSendsEveryMessageAtOnce) {
  auto channel = MpiProbeChannel::create(MPI_COMM_WORLD, {.eager_limit = 1 << 20, .max_age = std::chrono::microseconds(0)});
  for (int i = 0; i < 3; ++i) EXPECT_EQ(one_way_phase(*channel, pattern(24, i)).size(), channel->rank() == 1 ? 24u : 0u);
  channel->sum_all(std::uint64_t{0});
  if (channel->rank() == 0) {
    EXPECT_EQ(channel->probe_stats().wire_messages, 3u);
  }
}

// Messages far beyond any eager limit, all to all, phase after phase, every byte checked, while the
// channel's recycled buffers are written again as soon as it hands them out.
TEST_P(MpiChannels, LargeMessagesArriveIntactWhileTheirBuffersAreReused) {
  auto channel = this->channel();
  const int rank = channel->rank(), ranks = channel->ranks();
  const auto p = static_cast<std::size_t>(ranks);
  constexpr std::size_t kBytes = 512 * 1024;
  constexpr int kPhases = 12;
  auto seed = [](int phase, int source, int destination) { return phase * 16 + source * 4 + destination; };
  std::vector<std::size_t> sizes(p, kBytes);
  sizes[static_cast<std::size_t>(rank)] = 0;
  channel->reserve(sizes, sizes);
  std::vector<rank_t> others;
  for (rank_t r = 0; r < ranks; ++r)
    if (r != rank) others.push_back(r);
  int wrong = 0;
  for (int phase = 0; phase < kPhases; ++phase) {
    channel->begin_phase(others, others);
    for (rank_t to : others) {
      Bytes message = channel->acquire(kBytes);
      const Bytes content = pattern(kBytes, seed(phase, rank, to));
      message.assign(content.begin(), content.end());
      channel->send(to, std::move(message));
    }
    for (std::size_t left = others.size(); left > 0;) {
      std::optional<Received> got = channel->try_receive();
      if (!got) {  // meanwhile, reuse whatever buffers the channel has recycled, as other threads would
        Bytes scratch = channel->acquire(kBytes);
        scratch.assign(kBytes, std::byte{0xee});
        channel->release(std::move(scratch));
        continue;
      }
      wrong += got->bytes != pattern(kBytes, seed(phase, got->source, rank));
      channel->release(std::move(got->bytes));
      --left;
    }
    channel->end_phase();
  }
  EXPECT_EQ(wrong, 0) << "messages that arrived with other bytes than were sent";
}

// ---- misuse is reported, not hung on ----

TEST(MpiRmaChannel, AMessageBeyondTheReservedSizeIsAnError) {
  auto channel = MpiRmaChannel::create(MPI_COMM_WORLD);
  const int rank = channel->rank(), ranks = channel->ranks();
  const rank_t next = (rank + 1) % ranks, previous = (rank + ranks - 1) % ranks;
  std::vector<std::size_t> sizes(static_cast<std::size_t>(ranks), 0);
  sizes[static_cast<std::size_t>(next)] = 32;  // what I send to next
  std::vector<std::size_t> receive(static_cast<std::size_t>(ranks), 0);
  receive[static_cast<std::size_t>(previous)] = 32;
  channel->reserve(sizes, receive);
  EXPECT_GE(channel->window_bytes(), 40u);
  const std::vector<rank_t> to{next}, from{previous};
  channel->begin_phase(to, from);
  EXPECT_THROW(channel->send(next, pattern(33, 0)), Error);
  channel->send(next, pattern(32, rank));
  std::optional<Received> got;
  while (!(got = channel->try_receive())) std::this_thread::yield();
  EXPECT_EQ(got->source, previous);
  EXPECT_EQ(got->bytes, pattern(32, previous));
  channel->end_phase();
}

TEST(MpiProbeChannel, EndingAPhaseBeforeItsMessagesArrivedIsAnError) {
  auto channel = MpiProbeChannel::create(MPI_COMM_WORLD);
  const int rank = channel->rank(), ranks = channel->ranks();
  const std::vector<rank_t> nobody, from{(rank + 1) % ranks};
  channel->begin_phase(nobody, from);  // nobody sends: the phase cannot end
  EXPECT_THROW(channel->end_phase(), Error);
}

// MULTIPLE: the tests keep two channels alive at once and call MPI themselves while one lives.
int main(int argc, char** argv) {
  return courier::test_support::run_all_tests_under_mpi(argc, argv, MPI_THREAD_MULTIPLE);
}
