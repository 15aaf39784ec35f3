#pragma once
// What a run of a vertex program cost: per round on this rank, and in total over all ranks.
#include <cstdint>
#include <string>
#include <vector>

namespace courier::engine {

struct RoundStats {
  std::uint64_t active = 0;    // active vertices on all ranks at the start of the round
  double compute_seconds = 0;  // this rank's time in operators
  double sync_seconds = 0;     // this rank's time in reduce / broadcast and collectives
};

struct RunStats {
  std::vector<RoundStats> rounds;  // this rank's view
  double compute_seconds = 0;      // the largest total compute time of any rank
  double sync_seconds = 0;         // the largest non-overlapped communication time of any rank
  double total_seconds = 0;        // the largest wall time from engine start to finish()
  std::uint64_t messages = 0;      // sent by all ranks
  std::uint64_t bytes = 0;         // sent by all ranks
  std::uint64_t reduces = 0, broadcasts = 0;  // on this rank (the same on every rank)
  // The channel's communication buffers (paper 000, Fig. 5): the largest peak working set of any
  // rank, and the largest time any rank spent setting the layer up (e.g. MPI-RMA's windows).
  std::uint64_t buffer_bytes_peak = 0;
  double setup_seconds = 0;

  std::string summary() const;  // one line for logs
};

}  // namespace courier::engine
