// Fuzz target: the mailbox's decoding of a received batch (mailbox/codec.hpp: decode_batch and the
// codecs). The first byte picks the message type, fixed-size or through cereal; the rest is the
// batch. Decoding must deliver whole messages or throw an Error: never read past the batch, never
// allocate more than the batch could hold, never throw anything else.
#include <cereal/types/map.hpp>
#include <cereal/types/string.hpp>
#include <cereal/types/utility.hpp>
#include <cereal/types/vector.hpp>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "courier/core/error.hpp"
#include "courier/mailbox/codec.hpp"

namespace {

struct Edge {  // a plain struct: copied byte for byte
  std::uint32_t source, target;
  float weight;
};

template <class Message>
void decode(const std::byte* data, std::size_t bytes) {
  courier::mailbox::detail::Codec<Message> codec;
  std::size_t used = 0;
  try {
    const std::size_t count =
        courier::mailbox::detail::decode_batch(codec, data, bytes, [&](const Message&) { ++used; });
    if (count != used) std::abort();
  } catch (const courier::Error&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  const auto* batch = reinterpret_cast<const std::byte*>(data + 1);
  const std::size_t bytes = size - 1;
  switch (data[0] % 6) {
    case 0:
      decode<std::uint64_t>(batch, bytes);
      break;
    case 1:
      decode<Edge>(batch, bytes);
      break;
    case 2:
      decode<std::string>(batch, bytes);
      break;
    case 3:
      decode<std::vector<std::uint32_t>>(batch, bytes);
      break;
    case 4:
      decode<std::vector<std::string>>(batch, bytes);
      break;
    default:
      decode<std::map<std::uint64_t, std::pair<std::string, double>>>(batch, bytes);
      break;
  }
  return 0;
}
