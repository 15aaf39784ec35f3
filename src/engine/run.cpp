#include "courier/engine/run.hpp"

namespace courier::engine {

RunStats run(const dist::LocalGraph& graph, sync::Channel& channel, unsigned threads,
             const std::function<void(Engine&)>& algorithm) {
  ThreadTeam team(threads == 0 ? 1 : threads);
  Engine engine(graph, channel, team);
  algorithm(engine);
  return engine.finish();
}

}  // namespace courier::engine
