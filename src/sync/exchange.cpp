#include "courier/sync/exchange.hpp"

#include <cstring>

#include "courier/core/backoff.hpp"
#include "courier/core/error.hpp"

namespace courier::sync {

namespace {

// Sends messages[peer] to every peer and returns what every peer sent, in one phase.
std::vector<Bytes> one_phase(Channel& channel, std::vector<Bytes> messages, std::span<const rank_t> peers) {
  std::vector<Bytes> received(messages.size());
  channel.begin_phase(peers, peers);
  for (rank_t peer : peers) channel.send(peer, std::move(messages[peer]));
  std::size_t arrived = 0;
  Backoff backoff(channel.wait_limits());  // ranks may outnumber cores
  while (arrived < peers.size()) {
    auto message = channel.try_receive();
    if (!message) {
      backoff.pause();
      continue;
    }
    backoff.reset();
    received[message->source] = std::move(message->bytes);
    ++arrived;
  }
  channel.end_phase();
  return received;
}

Bytes size_message(Channel& channel, std::uint64_t size) {
  Bytes message = channel.acquire(sizeof size);
  message.resize(sizeof size);
  std::memcpy(message.data(), &size, sizeof size);
  return message;
}

}  // namespace

std::vector<Bytes> exchange_all(Channel& channel, std::vector<Bytes> outgoing) {
  const auto n = static_cast<std::size_t>(channel.ranks());
  const rank_t me = channel.rank();
  if (outgoing.size() != n) throw Error("sync: exchange_all needs one message per rank");
  std::vector<Bytes> received(n);
  received[me] = std::move(outgoing[me]);
  if (n == 1) return received;
  std::vector<rank_t> peers;
  for (rank_t r = 0; r < static_cast<rank_t>(n); ++r)
    if (r != me) peers.push_back(r);

  // Phase 1: sizes.
  std::vector<std::size_t> send_sizes(n, 0), receive_sizes(n, 0);
  std::vector<Bytes> sizes_out(n);
  for (rank_t peer : peers) {
    send_sizes[peer] = outgoing[peer].size();
    sizes_out[peer] = size_message(channel, send_sizes[peer]);
  }
  const std::vector<std::size_t> eight(n, sizeof(std::uint64_t));
  channel.reserve(eight, eight);
  auto sizes = one_phase(channel, std::move(sizes_out), peers);
  for (rank_t peer : peers) {
    std::uint64_t size = 0;
    if (sizes[peer].size() != sizeof size) throw Error("sync: exchange_all received a malformed size");
    std::memcpy(&size, sizes[peer].data(), sizeof size);
    receive_sizes[peer] = size;
  }
  for (rank_t peer : peers) channel.release(std::move(sizes[peer]));
  // Phase 2: the messages, in the channel's own buffers.
  channel.reserve(send_sizes, receive_sizes);
  std::vector<Bytes> messages(n);
  for (rank_t peer : peers) {
    messages[peer] = channel.acquire(outgoing[peer].size());
    messages[peer].assign(outgoing[peer].begin(), outgoing[peer].end());
    Bytes().swap(outgoing[peer]);  // copied: the message is not held twice through the phase
  }
  auto data = one_phase(channel, std::move(messages), peers);
  // Copied out and given back: the channel's buffers stay the channel's (recycled, and counted
  // in its footprint only while it holds them).
  for (rank_t peer : peers) {
    received[peer].assign(data[peer].begin(), data[peer].end());
    channel.release(std::move(data[peer]));
  }
  return received;
}

dist::Collective collective(Channel& channel) {
  return {channel.rank(), channel.ranks(),
          [&channel](std::vector<Bytes> outgoing) { return exchange_all(channel, std::move(outgoing)); }};
}

}  // namespace courier::sync
