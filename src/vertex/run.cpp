#include "courier/vertex/run.hpp"

namespace courier::vertex {

RunStats run(const dist::LocalGraph& graph, sync::Channel& channel, unsigned threads,
             const std::function<void(Engine&)>& algorithm, const PlacementOptions& placement) {
  if (threads == 0) threads = 1;
  ThreadTeam team(threads, placement_for(threads, placement));
  Engine engine(graph, channel, team);
  algorithm(engine);
  return engine.finish();
}

}  // namespace courier::vertex
