// Fuzz target: sync's message decoder (sync/encoding.hpp). The first two bytes are the length of
// the mirror list the message is for, the rest the message. A message that does not fit its list
// must be an Error; every entry decode hands on must lie inside the list.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <span>

#include "courier/core/error.hpp"
#include "courier/sync/encoding.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 2) return 0;
  std::uint16_t entries = 0;
  std::memcpy(&entries, data, sizeof entries);
  const std::span<const std::byte> message(reinterpret_cast<const std::byte*>(data + 2), size - 2);
  try {
    const std::size_t read = courier::sync::decode<std::uint64_t>(message, entries, [&](std::size_t i, std::uint64_t) {
      if (i >= entries) std::abort();
    });
    if (read > message.size()) std::abort();
  } catch (const courier::Error&) {
  }
  return 0;
}
