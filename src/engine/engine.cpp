#include "courier/engine/engine.hpp"

#include <fmt/format.h>

namespace courier::engine {

Engine::Engine(const dist::LocalGraph& graph, sync::Channel& channel, ThreadTeam& team)
    : graph_(graph), channel_(channel), team_(team), substrate_(graph, channel, team) {
  if (channel.ranks() != graph.ranks() || channel.rank() != graph.rank())
    throw Error(fmt::format("engine: the channel is rank {} of {} but the graph is rank {} of {}", channel.rank(),
                            channel.ranks(), graph.rank(), graph.ranks()));
}

std::uint64_t Engine::sum_all(std::uint64_t value) {
  Timer timer;
  const std::uint64_t total = ranks() == 1 ? value : channel_.sum_all(value);
  sync_ += timer.elapsed();
  return total;
}

double Engine::sum_all(double value) {
  Timer timer;
  const double total = ranks() == 1 ? value : channel_.sum_all(value);
  sync_ += timer.elapsed();
  return total;
}

double Engine::max_all(double value) {
  Timer timer;
  const double total = ranks() == 1 ? value : channel_.max_all(value);
  sync_ += timer.elapsed();
  return total;
}

void Engine::close_round() {
  // Work before the first round (setup) counts in the totals but is no round.
  if (round_open_) stats_.rounds.push_back({round_active_, compute_, sync_});
  round_open_ = false;
  compute_total_ += compute_;
  sync_total_ += sync_;
  compute_ = sync_ = 0;
}

bool Engine::next_round(Frontier& frontier) {
  Timer timer;
  const std::uint64_t local = frontier.prepare();
  compute_ += timer.elapsed();
  return next_round(local);
}

bool Engine::next_round(std::uint64_t active) {
  const std::uint64_t total = sum_all(active);
  close_round();
  round_open_ = total != 0;
  round_active_ = total;
  return total != 0;
}

RunStats Engine::finish() {
  close_round();
  RunStats totals = stats_;
  totals.compute_seconds = max_all(compute_total_);
  totals.sync_seconds = max_all(sync_total_);
  totals.total_seconds = max_all(started_.elapsed());
  const sync::ChannelStats channel = channel_.stats();
  totals.messages = sum_all(channel.messages_sent);
  totals.bytes = sum_all(channel.bytes_sent);
  totals.buffer_bytes_peak = static_cast<std::uint64_t>(max_all(static_cast<double>(channel.buffer_bytes_peak)));
  totals.setup_seconds = max_all(channel.setup_seconds);
  totals.reduces = substrate_.stats().reduces;
  totals.broadcasts = substrate_.stats().broadcasts;
  return totals;
}

std::string RunStats::summary() const {
  return fmt::format(
      "rounds {} compute {:.6f} s sync {:.6f} s total {:.6f} s messages {} bytes {} reduces {} broadcasts {} "
      "buffer peak {} bytes setup {:.6f} s",
      rounds.size(), compute_seconds, sync_seconds, total_seconds, messages, bytes, reduces, broadcasts,
      buffer_bytes_peak, setup_seconds);
}

}  // namespace courier::engine
