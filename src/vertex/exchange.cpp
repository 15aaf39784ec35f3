// Engine::exchange: an all-to-all of messages of any size over the Channel (sync::exchange_all),
// counted as communication time.
#include "courier/vertex/engine.hpp"
#include "courier/sync/exchange.hpp"

namespace courier::vertex {

std::vector<sync::Bytes> Engine::exchange(std::vector<sync::Bytes> outgoing) {
  if (outgoing.size() != static_cast<std::size_t>(ranks())) throw Error("engine: exchange needs one message per rank");
  Timer timer;
  auto received = sync::exchange_all(channel_, std::move(outgoing));
  sync_ += timer.elapsed();
  return received;
}

void Engine::exchange(std::span<const std::span<const std::byte>> outgoing, const sync::Arrived& arrived) {
  if (outgoing.size() != static_cast<std::size_t>(ranks())) throw Error("engine: exchange needs one message per rank");
  Timer timer;
  sync::exchange_all(channel_, outgoing, arrived);
  sync_ += timer.elapsed();
}

}  // namespace courier::vertex
