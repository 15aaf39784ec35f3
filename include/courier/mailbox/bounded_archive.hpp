#pragma once
// BoundedInputArchive: cereal's binary input format, read from a span that it never reads past,
// and whose container sizes may not exceed the bytes left. A record whose lengths were damaged
// (or sent as another type) then fails with an Error instead of asking for gigabytes: cereal's own
// binary archive resizes a string or vector to whatever length the bytes say before reading it.
// The bound assumes every element takes at least one byte, true of everything but empty types.
// Written with cereal's documented interface for archives (InputArchive plus load functions for
// arithmetic values, binary data, size tags and name-value pairs); the format is BinaryOutputArchive's.
#include <fmt/format.h>

#include <cereal/cereal.hpp>
#include <cstddef>
#include <cstring>
#include <type_traits>

#include "courier/core/error.hpp"

namespace courier::mailbox::detail {

class BoundedInputArchive : public cereal::InputArchive<BoundedInputArchive, cereal::AllowEmptyClassElision> {
 public:
  BoundedInputArchive(const std::byte* data, std::size_t bytes)
      : InputArchive(this), at_(data), end_(data + bytes), bytes_(bytes) {}

  std::size_t remaining() const { return static_cast<std::size_t>(end_ - at_); }
  void read(void* out, std::size_t size) {
    if (size > remaining()) fail(fmt::format("it ends {} bytes early", size - remaining()));
    if (size > 0) std::memcpy(out, at_, size);
    at_ += size;
  }
  [[noreturn]] void fail(const std::string& why) const {
    throw Error(
        fmt::format("mailbox: a message of {} bytes does not decode: {}; every rank must use the same "
                    "message type for this mailbox",
                    bytes_, why));
  }

 private:
  const std::byte* at_;
  const std::byte* end_;
  std::size_t bytes_;
};

template <class T>
requires std::is_arithmetic_v<T>
inline void CEREAL_LOAD_FUNCTION_NAME(BoundedInputArchive& ar, T& value) { ar.read(&value, sizeof value); }

template <class T>
inline void CEREAL_LOAD_FUNCTION_NAME(BoundedInputArchive& ar, cereal::BinaryData<T>& data) {
  ar.read(data.data, static_cast<std::size_t>(data.size));
}

template <class T>
inline void CEREAL_LOAD_FUNCTION_NAME(BoundedInputArchive& ar, cereal::NameValuePair<T>& pair) {
  ar(pair.value);
}

template <class T>
inline void CEREAL_LOAD_FUNCTION_NAME(BoundedInputArchive& ar, cereal::SizeTag<T>& tag) {
  ar(tag.size);
  if (static_cast<std::uint64_t>(tag.size) > ar.remaining())
    ar.fail(fmt::format("it gives a length of {} with {} bytes left", static_cast<std::uint64_t>(tag.size),
                        ar.remaining()));
}

}  // namespace courier::mailbox::detail

CEREAL_REGISTER_ARCHIVE(courier::mailbox::detail::BoundedInputArchive)
