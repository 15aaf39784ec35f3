#pragma once
// How a message becomes the payload of a record and back. Trivially copyable messages (integers,
// plain structs, pairs of numbers) are copied as they are, with a fixed size and no length; every
// other type goes through cereal's binary format, so std::string, std::vector, std::map and the
// other STL types cereal knows travel without extra code (include their cereal/types/*.hpp), and
// user types provide cereal's serialize(). Received records are read by BoundedInputArchive, which
// turns a damaged record into an Error rather than a read past its end or a huge allocation.
#include <cereal/archives/binary.hpp>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>
#include <ostream>
#include <span>
#include <streambuf>
#include <type_traits>

#include "courier/core/error.hpp"
#include "courier/mailbox/batch_buffer.hpp"
#include "courier/mailbox/bounded_archive.hpp"

namespace courier::mailbox::detail {

[[noreturn]] void bad_batch(std::size_t bytes);  // throws Error: the batch ends inside a record

// An output stream buffer appending to a BatchBuffer (cereal archives need a std::ostream).
class AppendStreambuf final : public std::streambuf {
 public:
  explicit AppendStreambuf(BatchBuffer& out) : out_(&out) {}

 protected:
  std::streamsize xsputn(const char* data, std::streamsize count) override {
    if (count > 0) std::memcpy(out_->extend(static_cast<std::size_t>(count)), data, static_cast<std::size_t>(count));
    return count;
  }
  int_type overflow(int_type ch) override {
    if (traits_type::eq_int_type(ch, traits_type::eof())) return traits_type::not_eof(ch);
    *out_->extend(1) = static_cast<std::byte>(ch);
    return ch;
  }

 private:
  BatchBuffer* out_;
};

template <class Message, bool Raw = std::is_trivially_copyable_v<Message>>
class Codec;

// Copied byte for byte: ranks run the same binary on the same kind of machine.
template <class Message>
class Codec<Message, true> {
 public:
  static constexpr std::size_t fixed_bytes = sizeof(Message);
  std::span<const std::byte> encode(const Message& message) {
    return {reinterpret_cast<const std::byte*>(&message), sizeof(Message)};
  }
  template <class Use>
  void decode(const std::byte* payload, std::size_t, Use&& use) {
    alignas(Message) std::byte storage[sizeof(Message)];
    std::memcpy(storage, payload, sizeof(Message));
    use(*std::launder(reinterpret_cast<const Message*>(storage)));
  }
  // `count` payloads back to back. They are copied a block at a time into local storage first:
  // the compiler cannot tell whether what a callback writes (a counter it captured by reference)
  // overlaps the batch it reads, and would otherwise go through memory for every message, but it
  // knows that nothing outside this function can point into a local array.
  template <class Use>
  void decode_run(const std::byte* data, std::size_t count, Use&& use) {
    constexpr std::size_t block = sizeof(Message) >= block_bytes ? 1 : block_bytes / sizeof(Message);
    alignas(Message) std::byte storage[block * sizeof(Message)];
    std::size_t first = 0;
    for (; first + block <= count; first += block) {
      std::memcpy(storage, data + first * sizeof(Message), sizeof storage);  // a constant size: no rep movs
      const auto* messages = std::launder(reinterpret_cast<const Message*>(storage));
      for (std::size_t i = 0; i < block; ++i) use(messages[i]);
    }
    for (; first < count; ++first) decode(data + first * sizeof(Message), sizeof(Message), use);
  }

 private:
  static constexpr std::size_t block_bytes = 256;  // GCC copies up to this many bytes with vector moves, not rep movs
};

// Through cereal: variable length, so records carry their payload's size.
template <class Message>
class Codec<Message, false> {
 public:
  static constexpr std::size_t fixed_bytes = 0;
  Codec() : out_buf_(scratch_), out_(&out_buf_) {}
  Codec(const Codec&) = delete;
  Codec& operator=(const Codec&) = delete;

  // Valid until the next encode.
  std::span<const std::byte> encode(const Message& message) {
    scratch_.clear();
    out_.clear();
    {
      cereal::BinaryOutputArchive archive(out_);
      archive(message);
    }
    return {scratch_.data(), scratch_.size()};
  }
  template <class Use>
  void decode(const std::byte* payload, std::size_t bytes, Use&& use) {
    static_assert(std::is_default_constructible_v<Message>, "mailbox messages sent through cereal need a default constructor");
    Message message;
    {
      BoundedInputArchive archive(payload, bytes);
      archive(message);
    }
    use(static_cast<const Message&>(message));
  }

 private:
  BatchBuffer scratch_;
  AppendStreambuf out_buf_;
  std::ostream out_;
};

// A direct batch: payloads back to back, each after its 32-bit size unless the codec's size is
// fixed; use(message) for each. Returns the count. A batch that ends inside a record is an Error.
template <class Message, class Use>
std::size_t decode_batch(Codec<Message>& codec, const std::byte* data, std::size_t bytes, Use&& use) {
  constexpr std::size_t fixed = Codec<Message>::fixed_bytes;
  if constexpr (fixed > 0) {
    if (bytes % fixed != 0) bad_batch(bytes);
    codec.decode_run(data, bytes / fixed, use);
    return bytes / fixed;
  } else {
    std::size_t count = 0;
    for (const std::byte* at = data; at < data + bytes; ++count) {
      std::uint32_t size;
      if (static_cast<std::size_t>(data + bytes - at) < sizeof size) bad_batch(bytes);
      std::memcpy(&size, at, sizeof size);
      if (static_cast<std::size_t>(data + bytes - at) - sizeof size < size) bad_batch(bytes);
      codec.decode(at + sizeof size, size, use);
      at += sizeof size + size;
    }
    return count;
  }
}

}  // namespace courier::mailbox::detail
