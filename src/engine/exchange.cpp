// Engine::exchange: an all-to-all of messages of any size over the Channel. Sizes travel first so
// that a channel which needs them in advance (mpi-rma sizes its windows) can reserve.
#include <cstring>
#include <thread>

#include "courier/engine/engine.hpp"

namespace courier::engine {

namespace {

// Sends messages[peer] to every peer and returns what every peer sent, in one phase.
std::vector<sync::Bytes> one_phase(sync::Channel& channel, std::vector<sync::Bytes> messages,
                                   std::span<const sync::rank_t> peers) {
  std::vector<sync::Bytes> received(messages.size());
  channel.begin_phase(peers, peers);
  for (sync::rank_t peer : peers) channel.send(peer, std::move(messages[peer]));
  std::size_t arrived = 0;
  for (unsigned idle = 0; arrived < peers.size();) {
    auto message = channel.try_receive();
    if (!message) {
      // Back off: ranks may outnumber cores.
      if (++idle < 64)
        std::this_thread::yield();
      else
        std::this_thread::sleep_for(std::chrono::microseconds(50));
      continue;
    }
    idle = 0;
    received[message->source] = std::move(message->bytes);
    ++arrived;
  }
  channel.end_phase();
  return received;
}

}  // namespace

std::vector<sync::Bytes> Engine::exchange(std::vector<sync::Bytes> outgoing) {
  const auto n = static_cast<std::size_t>(ranks());
  if (outgoing.size() != n) throw Error("engine: exchange needs one message per rank");
  Timer timer;
  std::vector<sync::Bytes> received(n);
  received[rank()] = std::move(outgoing[rank()]);
  if (n > 1) {
    std::vector<sync::rank_t> peers;
    for (sync::rank_t r = 0; r < ranks(); ++r)
      if (r != rank()) peers.push_back(r);
    // Phase 1: sizes.
    std::vector<std::size_t> send_sizes(n, 0), receive_sizes(n, 0);
    std::vector<sync::Bytes> size_messages(n);
    for (sync::rank_t peer : peers) {
      send_sizes[peer] = outgoing[peer].size();
      size_messages[peer] = channel_.acquire(sizeof(std::uint64_t));
      size_messages[peer].resize(sizeof(std::uint64_t));
      const std::uint64_t size = send_sizes[peer];
      std::memcpy(size_messages[peer].data(), &size, sizeof size);
    }
    const std::vector<std::size_t> eight(n, sizeof(std::uint64_t));
    channel_.reserve(eight, eight);
    auto sizes = one_phase(channel_, std::move(size_messages), peers);
    for (sync::rank_t peer : peers) {
      std::uint64_t size = 0;
      if (sizes[peer].size() != sizeof size) throw Error("engine: exchange received a malformed size");
      std::memcpy(&size, sizes[peer].data(), sizeof size);
      receive_sizes[peer] = size;
    }
    // Phase 2: the messages.
    channel_.reserve(send_sizes, receive_sizes);
    std::vector<sync::Bytes> messages(n);
    for (sync::rank_t peer : peers) {
      messages[peer] = channel_.acquire(outgoing[peer].size());
      messages[peer].assign(outgoing[peer].begin(), outgoing[peer].end());
    }
    auto data = one_phase(channel_, std::move(messages), peers);
    for (sync::rank_t peer : peers) received[peer] = std::move(data[peer]);
  }
  sync_ += timer.elapsed();
  return received;
}

}  // namespace courier::engine
