#pragma once
// Runs one body per rank, ranks as threads of this test joined by a loopback channel, each with
// its own team of threads and engine: how the engine and algorithm tests run distributed code.
#include <exception>
#include <functional>
#include <thread>
#include <vector>

#include "courier/dist/local_graph.hpp"
#include "courier/vertex/engine.hpp"
#include "support/local_stacks.hpp"
#include "support/loopback_channel.hpp"
#include "support/rank_threads.hpp"

namespace courier::test_support {

// The channel the ranks talk through: the loopback test double, or the real lci channel on the
// comm runtime's local transport, its progress mode chosen for this machine (lci) or forced:
// a progress thread per rank, or none (the waiting threads progress).
enum class Channel { loopback, lci, lci_thread, lci_explicit };

inline void on_every_rank(const std::vector<dist::LocalGraph>& parts, unsigned threads_per_rank,
                          const std::function<void(vertex::Engine&)>& body, Channel channel = Channel::loopback) {
  if (channel != Channel::loopback) {
    const sync::ProgressMode mode = channel == Channel::lci_thread     ? sync::ProgressMode::thread
                                    : channel == Channel::lci_explicit ? sync::ProgressMode::explicit_calls
                                                                       : sync::ProgressMode::automatic;
    const sync::StackSpec spec{.progress = mode, .threads_per_rank = threads_per_rank};
    on_local_stacks(static_cast<int>(parts.size()), spec, [&](comm::Runtime& runtime, sync::Stack& stack) {
      ThreadTeam team(threads_per_rank);
      vertex::Engine engine(parts[runtime.rank()], stack.channel(), team);
      body(engine);
    });
    return;
  }
  LoopbackHub hub(static_cast<int>(parts.size()));
  on_rank_threads(static_cast<int>(parts.size()), [&](int r) {
    LoopbackChannel channel(hub, r);
    ThreadTeam team(threads_per_rank);
    vertex::Engine engine(parts[r], channel, team);
    body(engine);
  });
}

}  // namespace courier::test_support
