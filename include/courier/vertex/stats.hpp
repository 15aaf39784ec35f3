#pragma once
// What a run of a vertex program cost, per round and in total, over all ranks.
#include <cstdint>
#include <string>
#include <vector>

namespace courier::vertex {

// One round. While the run goes on a rank holds its own values; finish() combines them.
struct RoundStats {
  std::uint64_t active = 0;    // active vertices on all ranks at the start of the round
  // Levels the round ran: 1, or more where a rank ran it alone (Engine::next_level): the most of
  // any rank. Its active vertices summed over those levels, on all ranks.
  std::uint64_t levels = 1;
  std::uint64_t visited = 0;
  // Bitset words its frontiers and syncs visited, on all ranks: what the round cost beyond its
  // edges and messages, which should follow its work, not the graph's size.
  std::uint64_t scanned_words = 0;
  double compute_seconds = 0;  // time in operators: the largest of any rank
  double sync_seconds = 0;     // time in reduce / broadcast and collectives: the largest of any rank
  std::uint64_t messages = 0;  // sent in the round by all ranks
  std::uint64_t bytes = 0;     // sent in the round by all ranks
  // The communication buffers' peak working set up to the end of this round (the channel keeps
  // one running peak): the largest of any rank. The round where it grows is where it was reached.
  std::uint64_t buffer_bytes_peak = 0;
  // 1 when an operator of the round pulled (read in-edges, Engine::pull) on any rank, else 0:
  // the direction a kernel that switches chose (bfs --direction auto).
  std::uint64_t pulled = 0;
};

struct RunStats {
  std::vector<RoundStats> rounds;  // combined over ranks
  std::uint64_t levels = 0;        // levels of all rounds (rounds, plus those ranks ran alone)
  std::uint64_t scanned_words = 0;  // bitset words visited by all ranks, rounds and set-up alike
  double compute_seconds = 0;      // the largest total compute time of any rank
  double sync_seconds = 0;         // the largest non-overlapped communication time of any rank
  double total_seconds = 0;        // the largest wall time from engine start to finish()
  std::uint64_t messages = 0;      // sent by all ranks
  std::uint64_t bytes = 0;         // sent by all ranks
  std::uint64_t reduces = 0, broadcasts = 0;  // on this rank (the same on every rank)
  // The channel's communication buffers (paper 000, Fig. 5): the largest peak working set of any
  // rank, and the largest time any rank spent setting the channel up (e.g. MPI-RMA's windows).
  std::uint64_t buffer_bytes_peak = 0;
  double setup_seconds = 0;

  std::string summary() const;  // one line for logs
};

}  // namespace courier::vertex
