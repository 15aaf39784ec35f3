#pragma once
// An all-to-all exchange between ranks that are threads of this test, for dist::Collective: each
// rank drops its messages into a shared grid, all wait, each takes its column, all wait again.
#include <barrier>
#include <functional>
#include <thread>
#include <vector>

#include "courier/dist/collective.hpp"
#include "support/rank_threads.hpp"

namespace courier::test_support {

class ThreadExchange {
 public:
  explicit ThreadExchange(rank_t ranks)
      : ranks_(ranks),
        grid_(static_cast<std::size_t>(ranks), std::vector<dist::Bytes>(static_cast<std::size_t>(ranks))),
        barrier_(ranks) {}

  dist::Collective collective(rank_t rank) {
    return {rank, ranks_, [this, rank](std::vector<dist::Bytes> outgoing) { return exchange(rank, std::move(outgoing)); }};
  }

  // Runs body(collective) on `ranks` threads; the first exception is rethrown after all ended.
  static void run(rank_t ranks, const std::function<void(const dist::Collective&)>& body) {
    ThreadExchange hub(ranks);
    on_rank_threads(ranks, [&](int r) { body(hub.collective(r)); });
  }

 private:
  std::vector<dist::Bytes> exchange(rank_t rank, std::vector<dist::Bytes> outgoing) {
    for (std::size_t to = 0; to < outgoing.size(); ++to) grid_[to][rank] = std::move(outgoing[to]);
    barrier_.arrive_and_wait();
    std::vector<dist::Bytes> mine = std::move(grid_[rank]);
    grid_[rank].assign(static_cast<std::size_t>(ranks_), {});
    barrier_.arrive_and_wait();
    return mine;
  }

  rank_t ranks_;
  std::vector<std::vector<dist::Bytes>> grid_;  // grid_[to][from]
  std::barrier<> barrier_;
};

}  // namespace courier::test_support
