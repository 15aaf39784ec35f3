// The lci channel's progress mode: the automatic choice (a progress thread only when the node has a
// hardware thread to spare), its parsing, and explicit progress that never strands a peer: each
// rank leaves phases and collectives for a wait outside the runtime (a barrier of the test's
// threads, as a rank that computes or enters an MPI collective), and the others still finish.
#include "courier/sync/progress_mode.hpp"

#include <barrier>
#include <cstring>
#include <vector>

#include <gtest/gtest.h>

#include "courier/comm/local_world.hpp"
#include "courier/core/error.hpp"
#include "courier/sync/lci_channel.hpp"

namespace lci_progress_test {

using namespace courier;
using namespace courier::sync;

TEST(ProgressMode, ParsesItsThreeNamesAndNamesThemBack) {
  for (ProgressMode mode : {ProgressMode::automatic, ProgressMode::thread, ProgressMode::explicit_calls})
    EXPECT_EQ(parse_progress_mode(to_string(mode)), mode);
  EXPECT_EQ(parse_progress_mode("explicit"), ProgressMode::explicit_calls);
}

TEST(ProgressMode, ABadNameIsAnInputErrorListingTheChoices) {
  try {
    parse_progress_mode("threads");
    FAIL() << "no error";
  } catch (const InputError& error) {
    const std::string what = error.what();
    EXPECT_NE(what.find("'threads'"), std::string::npos) << what;
    for (const char* choice : {"auto", "thread", "explicit"}) EXPECT_NE(what.find(choice), std::string::npos) << what;
  }
}

TEST(ProgressMode, AutomaticWantsAThreadOnlyWhenAHardwareThreadIsSpare) {
  auto wants = [](int ranks, unsigned threads, unsigned hardware) {
    return wants_progress_thread(ProgressMode::automatic,
                                 {.ranks_on_node = ranks, .threads_per_rank = threads, .hardware_threads = hardware});
  };
  EXPECT_TRUE(wants(1, 1, 2));   // one rank on two cores: the server has the other
  EXPECT_FALSE(wants(2, 1, 2));  // this VM's 2 ranks x 1 thread: no core left
  EXPECT_FALSE(wants(4, 1, 2));  // oversubscribed
  EXPECT_TRUE(wants(2, 1, 4));
  EXPECT_TRUE(wants(1, 3, 4));
  EXPECT_FALSE(wants(2, 2, 4));
  EXPECT_FALSE(wants(1, 64, 64));
  // Zero hardware threads means this machine's: a node cannot have a thread spare for 10^6 ranks.
  EXPECT_FALSE(wants(1000000, 1, 0));
}

TEST(ProgressMode, ABoundProcessCountsOnlyItsBinding) {
  // mpirun --bind-to core: two ranks of an 8-thread node, each bound to one core. Unbound, the
  // node would have 6 hardware threads spare; bound, a server would only take the rank's core.
  const ProgressBudget bound{.ranks_on_node = 2, .threads_per_rank = 1, .hardware_threads = 8, .allowed_threads = 1};
  EXPECT_FALSE(wants_progress_thread(ProgressMode::automatic, bound));
  EXPECT_TRUE(wants_progress_thread(ProgressMode::automatic, {.ranks_on_node = 2, .threads_per_rank = 1, .hardware_threads = 8}));
  // Bound to 4 of 8 with 2 compute threads: one is spare, whatever the node's other ranks do.
  EXPECT_TRUE(wants_progress_thread(ProgressMode::automatic,
                                    {.ranks_on_node = 6, .threads_per_rank = 2, .hardware_threads = 8, .allowed_threads = 4}));
  EXPECT_TRUE(oversubscribed({.ranks_on_node = 1, .threads_per_rank = 3, .hardware_threads = 8, .allowed_threads = 2}));
  // Ranks as threads of one bound process share its binding.
  EXPECT_TRUE(oversubscribed(
      {.ranks_on_node = 4, .threads_per_rank = 1, .hardware_threads = 8, .allowed_threads = 2, .ranks_in_process = 4}));
  EXPECT_FALSE(wants_progress_thread(
      ProgressMode::automatic,
      {.ranks_on_node = 2, .threads_per_rank = 1, .hardware_threads = 8, .allowed_threads = 2, .ranks_in_process = 2}));
  // A binding to the whole node is no binding.
  EXPECT_FALSE(wants_progress_thread(ProgressMode::automatic,
                                     {.ranks_on_node = 8, .threads_per_rank = 1, .hardware_threads = 8, .allowed_threads = 8}));
}

TEST(ProgressMode, AnExplicitChoiceOverridesTheBudget) {
  const ProgressBudget full{.ranks_on_node = 4, .threads_per_rank = 1, .hardware_threads = 2};
  const ProgressBudget spare{.ranks_on_node = 1, .threads_per_rank = 1, .hardware_threads = 8};
  EXPECT_TRUE(wants_progress_thread(ProgressMode::thread, full));
  EXPECT_FALSE(wants_progress_thread(ProgressMode::explicit_calls, spare));
  EXPECT_TRUE(LciChannel::runtime_options(ProgressMode::thread, full).progress_thread);
  EXPECT_FALSE(LciChannel::runtime_options(ProgressMode::automatic, full).progress_thread);
  EXPECT_TRUE(LciChannel::runtime_options(ProgressMode::automatic, spare).progress_thread);
  EXPECT_FALSE(LciChannel::runtime_options(ProgressMode::explicit_calls, spare).progress_thread);
}

TEST(ProgressMode, OversubscribedMeansMoreComputeThreadsThanHardwareThreads) {
  EXPECT_FALSE(oversubscribed({.ranks_on_node = 2, .threads_per_rank = 1, .hardware_threads = 2}));
  EXPECT_TRUE(oversubscribed({.ranks_on_node = 4, .threads_per_rank = 1, .hardware_threads = 2}));
  EXPECT_TRUE(oversubscribed({.ranks_on_node = 1, .threads_per_rank = 3, .hardware_threads = 2}));
  EXPECT_FALSE(oversubscribed({.ranks_on_node = 1, .threads_per_rank = 1, .hardware_threads = 8}));
}

TEST(LciOptionsFor, LargerMessagesOnlyWhereRanksTakeTurnsOnTheCores) {
  const LciOptions fits = LciChannel::options_for({.ranks_on_node = 2, .threads_per_rank = 1, .hardware_threads = 2});
  EXPECT_EQ(fits.message_bytes, LciOptions{}.message_bytes);  // eager-sized: the smallest buffers
  EXPECT_EQ(fits.window, LciOptions{}.window);
  const LciOptions turns = LciChannel::options_for({.ranks_on_node = 4, .threads_per_rank = 1, .hardware_threads = 2});
  EXPECT_EQ(turns.message_bytes, 16u * 1024u);
  EXPECT_EQ(turns.window, 4u);
  // Still a small footprint: a window of messages, whatever the graph.
  EXPECT_LE(turns.message_bytes * turns.window, 64u * 1024u);
  EXPECT_TRUE(turns.stream);
}

TEST(ProgressMode, RanksOnNodeCountsTheRanksSharingTheNode) {
  const std::vector<int> nodes{0, 0, 1, 1, 1};
  EXPECT_EQ(ranks_on_node(nodes, 0), 2);
  EXPECT_EQ(ranks_on_node(nodes, 4), 3);
  EXPECT_EQ(ranks_on_node(nodes, 7), 1);  // not in the table
  EXPECT_EQ(ranks_on_node({}, 0), 1);
}

namespace {

// One phase: rank 0 sends `count` messages of `bytes` to every peer (rendezvous above the eager
// limit), the others one: rank 0 has all it needs long before its peers have.
void phase(LciChannel& channel, std::size_t count, std::size_t bytes, std::uint64_t round) {
  const auto count_of = [&](rank_t rank) { return rank == 0 ? count : std::size_t{1}; };
  std::vector<rank_t> peers;
  for (rank_t r = 0; r < channel.ranks(); ++r)
    if (r != channel.rank()) peers.push_back(r);
  channel.begin_phase(peers, peers);
  for (std::size_t i = 0; i < count_of(channel.rank()); ++i)
    for (rank_t peer : peers) {
      Bytes out = channel.acquire(bytes);
      out.assign(bytes, static_cast<std::byte>(round + static_cast<std::uint64_t>(channel.rank())));
      channel.send(peer, std::move(out));
    }
  std::size_t expected = 0;
  for (rank_t peer : peers) expected += count_of(peer);
  for (std::size_t got = 0; got < expected;) {
    auto received = channel.try_receive();
    if (!received) continue;
    ++got;
    ASSERT_EQ(received->bytes.size(), bytes);
    EXPECT_EQ(received->bytes.front(), static_cast<std::byte>(round + static_cast<std::uint64_t>(received->source)));
    channel.release(std::move(received->bytes));
  }
  channel.end_phase();
}

}  // namespace

TEST(LciExplicitProgress, PhasesAndCollectivesNeverStrandAPeerThatStoppedProgressing) {
  const ProgressBudget any{};
  for (int ranks : {2, 3, 4}) {
    std::barrier outside(ranks);  // a wait that does not progress the runtime
    comm::run_local(ranks, [&](comm::Runtime& runtime) {
      ASSERT_FALSE(runtime.options().progress_thread);
      LciChannel channel(runtime);
      for (std::uint64_t round = 0; round < 30; ++round) {
        // Eager: one packet, or more frames than the transport holds (the last ones still queued
        // when this rank has all it needs); rendezvous (the peer pulls after this rank's phase).
        if (round % 3 == 0) phase(channel, 1, 100, round);
        if (round % 3 == 1) phase(channel, 120, 7000, round);
        if (round % 3 == 2) phase(channel, 2, 200000, round);
        outside.arrive_and_wait();
        ASSERT_EQ(channel.sum_all(std::uint64_t{round}), round * static_cast<std::uint64_t>(ranks));
        outside.arrive_and_wait();
      }
    }, LciChannel::runtime_options(ProgressMode::explicit_calls, any));
  }
}

}  // namespace lci_progress_test
