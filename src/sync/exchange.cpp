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

// Both exchanges: sizes first, then the messages, which fill(peer, buffer) writes into the
// channel's buffers and take(source, bytes) reads in them before they go back to the channel.
template <class Fill, class Take>
void exchange_through(Channel& channel, const std::vector<std::size_t>& send_sizes, Fill fill, Take take) {
  const auto n = static_cast<std::size_t>(channel.ranks());
  const rank_t me = channel.rank();
  std::vector<rank_t> peers;
  for (rank_t r = 0; r < static_cast<rank_t>(n); ++r)
    if (r != me) peers.push_back(r);

  // Phase 1: sizes.
  std::vector<std::size_t> receive_sizes(n, 0);
  std::vector<Bytes> sizes_out(n);
  for (rank_t peer : peers) sizes_out[peer] = size_message(channel, send_sizes[peer]);
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
    messages[peer] = channel.acquire(send_sizes[peer]);
    fill(peer, messages[peer]);
  }
  auto data = one_phase(channel, std::move(messages), peers);
  // Read in place and given back: the channel's buffers stay the channel's (recycled, and counted
  // in its footprint only while it holds them).
  for (rank_t peer : peers) {
    take(peer, std::span<const std::byte>(data[peer]));
    channel.release(std::move(data[peer]));
  }
}

}  // namespace

std::vector<Bytes> exchange_all(Channel& channel, std::vector<Bytes> outgoing) {
  const auto n = static_cast<std::size_t>(channel.ranks());
  const rank_t me = channel.rank();
  if (outgoing.size() != n) throw Error("sync: exchange_all needs one message per rank");
  std::vector<Bytes> received(n);
  received[me] = std::move(outgoing[me]);
  if (n == 1) return received;
  std::vector<std::size_t> send_sizes(n, 0);
  for (std::size_t r = 0; r < n; ++r) send_sizes[r] = outgoing[r].size();
  exchange_through(
      channel, send_sizes,
      [&](rank_t peer, Bytes& message) {
        message.assign(outgoing[peer].begin(), outgoing[peer].end());
        Bytes().swap(outgoing[peer]);  // copied: the message is not held twice through the phase
      },
      [&](rank_t source, std::span<const std::byte> bytes) { received[source].assign(bytes.begin(), bytes.end()); });
  return received;
}

void exchange_all(Channel& channel, std::span<const std::span<const std::byte>> outgoing, const Arrived& arrived) {
  const auto n = static_cast<std::size_t>(channel.ranks());
  if (outgoing.size() != n) throw Error("sync: exchange_all needs one message per rank");
  if (n == 1) return;
  std::vector<std::size_t> send_sizes(n, 0);
  for (std::size_t r = 0; r < n; ++r)
    if (r != static_cast<std::size_t>(channel.rank())) send_sizes[r] = outgoing[r].size();  // this rank's stays
  exchange_through(
      channel, send_sizes,
      [&](rank_t peer, Bytes& message) { message.assign(outgoing[peer].begin(), outgoing[peer].end()); }, arrived);
}

dist::Collective collective(Channel& channel) {
  return {channel.rank(), channel.ranks(),
          [&channel](std::vector<Bytes> outgoing) { return exchange_all(channel, std::move(outgoing)); },
          [&channel] { channel.restart_buffer_peak(); }};
}

}  // namespace courier::sync
