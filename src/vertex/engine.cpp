#include "courier/vertex/engine.hpp"

#include <algorithm>
#include <cstring>
#include <type_traits>

#include <fmt/format.h>

namespace courier::vertex {

Engine::Engine(const dist::LocalGraph& graph, sync::Channel& channel, ThreadTeam& team)
    : graph_(graph), channel_(channel), team_(team), substrate_(graph, channel, team) {
  if (channel.ranks() != graph.ranks() || channel.rank() != graph.rank())
    throw Error(fmt::format("engine: the channel is rank {} of {} but the graph is rank {} of {}", channel.rank(),
                            channel.ranks(), graph.rank(), graph.ranks()));
  channel_.restart_buffer_peak();  // the run's footprint, not that of a load over the same channel
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
  // Work before the first round (setup) counts in the totals but is no round; so do its messages.
  const sync::ChannelStats channel = channel_.stats();
  if (round_open_)
    stats_.rounds.push_back({round_active_, compute_, sync_, channel.messages_sent - messages_before_,
                             channel.bytes_sent - bytes_before_, channel.buffer_bytes_peak});
  messages_before_ = channel.messages_sent;
  bytes_before_ = channel.bytes_sent;
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
  if (ranks() > 1) combine_rounds(totals.rounds);  // after the totals: its own messages are not the run's
  return totals;
}

// Every rank sends its rounds to every rank, and each combines them the same way.
void Engine::combine_rounds(std::vector<RoundStats>& rounds) {
  static_assert(std::is_trivially_copyable_v<RoundStats>);
  sync::Bytes mine(rounds.size() * sizeof(RoundStats));
  if (!rounds.empty()) std::memcpy(mine.data(), rounds.data(), mine.size());
  const std::vector<sync::Bytes> all = exchange(std::vector<sync::Bytes>(static_cast<std::size_t>(ranks()), mine));
  for (RoundStats& round : rounds) round.messages = round.bytes = 0;  // summed below, this rank's included
  for (const sync::Bytes& theirs : all) {
    if (theirs.size() != mine.size()) throw Error("engine: ranks ran different numbers of rounds");
    for (std::size_t i = 0; i < rounds.size(); ++i) {
      RoundStats other;
      std::memcpy(&other, theirs.data() + i * sizeof other, sizeof other);
      RoundStats& round = rounds[i];
      round.compute_seconds = std::max(round.compute_seconds, other.compute_seconds);
      round.sync_seconds = std::max(round.sync_seconds, other.sync_seconds);
      round.messages += other.messages;
      round.bytes += other.bytes;
      round.buffer_bytes_peak = std::max(round.buffer_bytes_peak, other.buffer_bytes_peak);
    }
  }
}

std::string RunStats::summary() const {
  return fmt::format(
      "rounds {} compute {:.6f} s sync {:.6f} s total {:.6f} s messages {} bytes {} reduces {} broadcasts {} "
      "buffer peak {} bytes setup {:.6f} s",
      rounds.size(), compute_seconds, sync_seconds, total_seconds, messages, bytes, reduces, broadcasts,
      buffer_bytes_peak, setup_seconds);
}

}  // namespace courier::vertex
