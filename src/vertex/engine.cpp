#include "courier/vertex/engine.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <type_traits>
#include <utility>

#include "courier/core/cancel.hpp"

namespace courier::vertex {

Engine::Engine(const dist::LocalGraph& graph, sync::Channel& channel, ThreadTeam& team)
    : graph_(graph), channel_(channel), team_(team), substrate_(graph, channel, team) {
  if (channel.ranks() != graph.ranks() || channel.rank() != graph.rank())
    throw Error(fmt::format("engine: the channel is rank {} of {} but the graph is rank {} of {}", channel.rank(),
                            channel.ranks(), graph.rank(), graph.ranks()));
  channel_.restart_buffer_peak();  // the run's footprint, not that of a load over the same channel
  if (ranks() > 1) {
    mirrored_masters_.resize(graph.masters());
    for (rank_t peer = 0; peer < ranks(); ++peer)
      for (local_t master : graph.masters_mirrored_on(peer)) mirrored_masters_.set_exclusive(master);
  }
  progress_ = std::make_unique<ProgressLine>("vertex engine");
  if (!progress_->active()) progress_.reset();
  scanned_before_ = team_.scanned_words();
}

std::uint64_t Engine::sum_all(std::uint64_t value) {
  if (ranks() == 1) return value;  // no clock reads: one rank may run a million tiny rounds
  Timer timer;
  const std::uint64_t total = channel_.sum_all(value);
  sync_ += timer.elapsed();
  return total;
}

double Engine::sum_all(double value) {
  if (ranks() == 1) return value;  // no clock reads: one rank may run a million tiny rounds
  Timer timer;
  const double total = channel_.sum_all(value);
  sync_ += timer.elapsed();
  return total;
}

double Engine::max_all(double value) {
  if (ranks() == 1) return value;  // no clock reads: one rank may run a million tiny rounds
  Timer timer;
  const double total = channel_.max_all(value);
  sync_ += timer.elapsed();
  return total;
}

void Engine::close_round() {
  // Work before the first round (setup) counts in the totals but is no round; so do its messages.
  const sync::ChannelStats channel = channel_.stats();
  const std::uint64_t scanned = team_.scanned_words();
  if (round_open_) {
    RoundStats round;
    round.active = round_started_active_;
    round.levels = round_levels_;
    round.visited = round_visited_;
    round.scanned_words = scanned - scanned_before_;
    round.compute_seconds = compute_;
    round.sync_seconds = sync_;
    round.messages = channel.messages_sent - messages_before_;
    round.bytes = channel.bytes_sent - bytes_before_;
    round.buffer_bytes_peak = channel.buffer_bytes_peak;
    round.pulled = round_pulled_ ? 1 : 0;
    stats_.rounds.push_back(round);
    levels_total_ += round_levels_;
  }
  messages_before_ = channel.messages_sent;
  bytes_before_ = channel.bytes_sent;
  scanned_before_ = scanned;
  round_open_ = false;
  round_pulled_ = false;
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
  stop_lapping();
  // A rank asked to stop counts itself above the active vertices (fewer than 2^48), so the round's
  // one reduction also tells every rank, in the same round, that the run is cancelled.
  constexpr int kCancelShift = 48;
  const std::uint64_t word = sum_all(active + (cancellation_requested() ? std::uint64_t{1} << kCancelShift : 0));
  if ((word >> kCancelShift) != 0) throw Cancelled();
  const std::uint64_t total = word;
  close_round();
  round_open_ = total != 0;
  round_active_ = round_started_active_ = total;
  alone_ = ranks() > 1 && total != 0 && total == active;
  round_levels_ = 1;
  round_visited_ = active;
  if (progress_ && rank() == 0 && round_open_ && progress_->due())
    progress_->show(fmt::format("round {} ({} levels), {} active", rounds(), levels_total_ + 1, total));
  return total != 0;
}

void Engine::count_level(std::uint64_t active) {
  ++round_levels_;
  round_visited_ += active;
  round_active_ = active;  // alone: this rank's are all there are
  // A clock read every 1024 levels: a level alone may take well under a microsecond.
  if (progress_ && round_levels_ % 1024 == 0 && progress_->due())
    progress_->show(
        fmt::format("round {}, rank {} alone for {} levels, {} active", rounds(), rank(), round_levels_, active));
}

// Under `plan`, a sync sends updated mirrors (reduce) and updated masters that a peer mirrors
// (broadcast). The updated set is tidied, so each test costs its touched words.
bool Engine::updates_stay_here(Bitset& updated, SyncPlan plan) {
  updated.tidy();
  if (!updated.any()) return false;  // nothing left to do here: the round ends as usual
  if (plan.reduce && updated.count(graph_.masters(), graph_.proxies()) != 0) return false;
  if (plan.broadcast) {
    bool mirrored = false;
    updated.for_each(0, graph_.masters(), [&](std::size_t v) { mirrored = mirrored || mirrored_masters_.test(v); });
    if (mirrored) return false;
  }
  return true;
}

RunStats Engine::finish() {
  stop_lapping();
  close_round();
  RunStats totals = std::move(stats_);  // a round a vertex on a path: do not copy them
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
  totals.scanned_words = sum_all(team_.scanned_words());
  if (ranks() > 1) combine_rounds(totals.rounds);  // after the totals: its own messages are not the run's
  for (const RoundStats& round : totals.rounds) totals.levels += round.levels;
  return totals;
}

// Every rank sends its rounds to every rank, and each combines them the same way.
void Engine::combine_rounds(std::vector<RoundStats>& rounds) {
  static_assert(std::is_trivially_copyable_v<RoundStats>);
  sync::Bytes mine(rounds.size() * sizeof(RoundStats));
  if (!rounds.empty()) std::memcpy(mine.data(), rounds.data(), mine.size());
  const std::vector<sync::Bytes> all = exchange(std::vector<sync::Bytes>(static_cast<std::size_t>(ranks()), mine));
  for (RoundStats& round : rounds)  // summed below, this rank's included
    round.messages = round.bytes = round.visited = round.scanned_words = 0;
  for (const sync::Bytes& theirs : all) {
    if (theirs.size() != mine.size()) throw Error("engine: ranks ran different numbers of rounds");
    for (std::size_t i = 0; i < rounds.size(); ++i) {
      RoundStats other;
      std::memcpy(&other, theirs.data() + i * sizeof other, sizeof other);
      RoundStats& round = rounds[i];
      round.compute_seconds = std::max(round.compute_seconds, other.compute_seconds);
      round.sync_seconds = std::max(round.sync_seconds, other.sync_seconds);
      round.levels = std::max(round.levels, other.levels);
      round.visited += other.visited;
      round.scanned_words += other.scanned_words;
      round.messages += other.messages;
      round.bytes += other.bytes;
      round.buffer_bytes_peak = std::max(round.buffer_bytes_peak, other.buffer_bytes_peak);
      round.pulled = std::max(round.pulled, other.pulled);
    }
  }
}

std::string RunStats::summary() const {
  return fmt::format(
      "rounds {} levels {} compute {:.6f} s sync {:.6f} s total {:.6f} s messages {} bytes {} reduces {} broadcasts {} "
      "buffer peak {} bytes setup {:.6f} s scanned {} words",
      rounds.size(), levels, compute_seconds, sync_seconds, total_seconds, messages, bytes, reduces, broadcasts,
      buffer_bytes_peak, setup_seconds, scanned_words);
}

}  // namespace courier::vertex
