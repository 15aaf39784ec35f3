// The fixed-size codec's run decoder: every message of a batch reaches the callback once, in
// order, whatever the batch's length against the decoder's block (full blocks, a tail, messages
// larger than a block).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "courier/mailbox/codec.hpp"

namespace codec_test {

namespace mb = courier::mailbox;

namespace {

template <std::size_t Bytes>
struct Message {
  std::uint64_t id;
  std::uint8_t fill[Bytes - sizeof(std::uint64_t)];
};

template <class M>
std::vector<std::byte> batch_of(std::size_t count) {
  std::vector<std::byte> bytes(count * sizeof(M));
  for (std::size_t i = 0; i < count; ++i) {
    M m{};
    m.id = i * 7 + 1;
    std::memset(m.fill, static_cast<int>(i % 251), sizeof m.fill);
    std::memcpy(bytes.data() + i * sizeof(M), &m, sizeof m);
  }
  return bytes;
}

template <class M>
void decodes_every_message_in_order() {
  mb::detail::Codec<M> codec;
  for (std::size_t count : {0, 1, 2, 15, 16, 17, 31, 32, 33, 64, 100, 513}) {
    const std::vector<std::byte> bytes = batch_of<M>(count);
    std::vector<std::uint64_t> seen;
    std::uint64_t fill_errors = 0;
    codec.decode_run(bytes.data(), count, [&](const M& m) {
      seen.push_back(m.id);
      const auto expected = static_cast<std::uint8_t>((seen.size() - 1) % 251);
      for (std::uint8_t b : m.fill) fill_errors += b != expected;
    });
    ASSERT_EQ(seen.size(), count) << sizeof(M) << " B messages, " << count;
    for (std::size_t i = 0; i < count; ++i) EXPECT_EQ(seen[i], i * 7 + 1) << sizeof(M) << " B, message " << i;
    EXPECT_EQ(fill_errors, 0u) << sizeof(M) << " B messages, " << count;
  }
}

}  // namespace

TEST(MailboxCodec, RunsOfEverySizeDecodeEveryMessageInOrder) {
  decodes_every_message_in_order<Message<8>>();
  decodes_every_message_in_order<Message<12>>();
  decodes_every_message_in_order<Message<24>>();
  decodes_every_message_in_order<Message<200>>();
  decodes_every_message_in_order<Message<1000>>();  // larger than a block: one at a time
}

}  // namespace codec_test
