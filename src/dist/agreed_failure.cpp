#include "courier/dist/agreed_failure.hpp"

#include <cstring>
#include <memory>

#include <fmt/format.h>

namespace courier::dist {

namespace {

// The status byte after every message's payload.
constexpr std::byte kData{0}, kFailure{1};

// The first failure among what the ranks sent, in rank order: the same choice on every rank.
void throw_first_failure(const std::vector<Bytes>& received) {
  for (const Bytes& message : received)
    if (!message.empty() && message.back() == kFailure)
      throw AgreedFailure(std::string(reinterpret_cast<const char*>(message.data()), message.size() - 1));
}

}  // namespace

Collective failure_aware(const Collective& collective) {
  Collective aware = collective;
  aware.exchange = [inner = collective.exchange](std::vector<Bytes> outgoing) {
    for (Bytes& message : outgoing) message.push_back(kData);
    std::vector<Bytes> received = inner(std::move(outgoing));
    throw_first_failure(received);
    for (Bytes& message : received) {
      if (message.empty()) throw Error("failure_aware: a rank sent a message without its status byte");
      message.pop_back();
    }
    return received;
  };
  return aware;
}

void announce_failure(const Collective& collective, std::string_view stage, std::string_view what) {
  const std::string text = fmt::format("{} failed on rank {}: {}", stage, collective.rank, what.empty() ? "unknown error" : what);
  Bytes message(text.size());
  if (!text.empty()) std::memcpy(message.data(), text.data(), text.size());
  message.push_back(kFailure);
  const std::vector<Bytes> received =
      collective.exchange(std::vector<Bytes>(static_cast<std::size_t>(collective.ranks), message));
  throw_first_failure(received);
  throw AgreedFailure(text);  // not reached: this rank's own message is among them
}

void close_stage(const Collective& aware) { aware.exchange(std::vector<Bytes>(static_cast<std::size_t>(aware.ranks))); }

}  // namespace courier::dist
