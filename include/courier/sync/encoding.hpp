#pragma once
// The encoding of one synchronisation message: which entries of an agreed list of proxies it carries
// and their values. The metadata is chosen per message by size (as Gluon does):
//   empty    nothing was updated: the header alone tells the receiver so;
//   all      every entry was updated: values only, no metadata;
//   bitset   one bit per list entry, then the values of the set ones;
//   offsets  a 32-bit index per updated entry, then the values.
// Global ids are never needed: both sides hold the list in the same order (LocalGraph's mirror
// lists), and an offset is never longer than a global id.
#include <bit>
#include <cstdint>
#include <cstring>
#include <span>
#include <type_traits>

#include "courier/core/bitset.hpp"
#include "courier/core/error.hpp"
#include "courier/sync/channel.hpp"

namespace courier::sync {

enum class Metadata : std::uint32_t { empty, all, bitset, offsets };

struct MessageHeader {
  Metadata metadata = Metadata::empty;
  std::uint32_t count = 0;  // values carried
};

// The largest message for a list of `entries` values of `value_bytes` each.
inline std::size_t max_message_bytes(std::size_t entries, std::size_t value_bytes) {
  return sizeof(MessageHeader) + (entries + 63) / 64 * 8 + entries * value_bytes;
}

namespace detail {

// Appends the message for a list of n entries, k of them updated; each_updated(fn) calls
// fn(list index, value) for the updated entries in list order.
template <class T, class EachUpdated>
void write_message(std::size_t n, std::size_t k, EachUpdated each_updated, Bytes& out) {
  static_assert(std::is_trivially_copyable_v<T>);
  MessageHeader header{Metadata::empty, static_cast<std::uint32_t>(k)};
  const std::size_t bitset_bytes = (n + 63) / 64 * 8, offset_bytes = k * sizeof(std::uint32_t);
  if (k == 0)
    header.metadata = Metadata::empty;
  else if (k == n)
    header.metadata = Metadata::all;
  else
    header.metadata = bitset_bytes < offset_bytes ? Metadata::bitset : Metadata::offsets;
  const std::size_t metadata_bytes = header.metadata == Metadata::bitset    ? bitset_bytes
                                     : header.metadata == Metadata::offsets ? offset_bytes
                                                                            : 0;

  const std::size_t start = out.size();
  out.resize(start + sizeof header + metadata_bytes + k * sizeof(T));
  std::byte* at = out.data() + start;
  std::memcpy(at, &header, sizeof header);
  std::byte* meta = at + sizeof header;
  std::byte* values = meta + metadata_bytes;
  if (header.metadata == Metadata::bitset) std::memset(meta, 0, bitset_bytes);
  std::size_t j = 0;
  each_updated([&](std::size_t i, const T& v) {
    if (header.metadata == Metadata::bitset) {
      meta[i / 8] |= std::byte{static_cast<unsigned char>(1u << (i % 8))};
    } else if (header.metadata == Metadata::offsets) {
      const auto offset = static_cast<std::uint32_t>(i);
      std::memcpy(meta + j * sizeof offset, &offset, sizeof offset);
    }
    std::memcpy(values + j * sizeof(T), &v, sizeof(T));
    ++j;
  });
}

}  // namespace detail

// Appends to `out` the entries i of `list` whose proxy list[i] is set in `updated`, with
// values value[list[i]].
template <class T, class Local>
void encode(std::span<const Local> list, const Bitset& updated, std::span<const T> value, Bytes& out) {
  count_scanned_words(2 * ((list.size() + 63) / 64));  // two tests an entry: as scanning its bits' words
  std::size_t k = 0;
  for (Local l : list) k += updated.test(l);
  detail::write_message<T>(
      list.size(), k,
      [&](auto&& put) {
        for (std::size_t i = 0; i < list.size(); ++i)
          if (updated.test(list[i])) put(i, value[list[i]]);
      },
      out);
}

// The same message for the list of the n consecutive proxies from `first` (a rank's mirrors of
// one owner): its updated entries are counted and found a bitset word at a time, so a phase that
// updated few of them costs the words, not a test per entry.
template <class T>
void encode_range(std::size_t first, std::size_t n, const Bitset& updated, std::span<const T> value, Bytes& out) {
  detail::write_message<T>(
      n, updated.count(first, first + n),
      [&](auto&& put) {
        updated.for_each(first, first + n, [&](std::size_t proxy) { put(proxy - first, value[proxy]); });
      },
      out);
}

// The same message for entries [first, first + list.size()) of a longer list whose updated
// entries are known: `at` holds their indices in the longer list, increasing, within the range.
// Costs the updated entries, not the list.
template <class T, class Local>
void encode_at(std::span<const Local> list, std::size_t first, std::span<const std::uint32_t> at,
               std::span<const T> value, Bytes& out) {
  detail::write_message<T>(
      list.size(), at.size(),
      [&](auto&& put) {
        for (std::uint32_t i : at) put(i - first, value[list[i - first]]);
      },
      out);
}

// Calls apply(list index, value) for every entry of a message made by encode for a list of
// `entries`; returns the bytes it read. Throws Error on a message that does not fit the list.
template <class T, class Apply>
std::size_t decode(std::span<const std::byte> message, std::size_t entries, Apply&& apply) {
  MessageHeader header;
  if (message.size() < sizeof header) throw Error("sync: a message shorter than its header");
  std::memcpy(&header, message.data(), sizeof header);
  const std::size_t k = header.count;
  const std::byte* meta = message.data() + sizeof header;
  std::size_t metadata_bytes = 0;
  switch (header.metadata) {
    case Metadata::empty:
      metadata_bytes = 0;
      break;
    case Metadata::all:
      metadata_bytes = 0;
      break;
    case Metadata::bitset:
      metadata_bytes = (entries + 63) / 64 * 8;
      break;
    case Metadata::offsets:
      metadata_bytes = k * sizeof(std::uint32_t);
      break;
    default:
      throw Error("sync: a message with unknown metadata");
  }
  const std::size_t total = sizeof header + metadata_bytes + k * sizeof(T);
  if (message.size() < total || k > entries || (header.metadata == Metadata::all && k != entries))
    throw Error("sync: a message that does not fit its mirror list (ranks disagree on the partition?)");
  const std::byte* values = meta + metadata_bytes;
  auto value_at = [&](std::size_t j) {
    T v;
    std::memcpy(&v, values + j * sizeof(T), sizeof(T));
    return v;
  };
  if (header.metadata == Metadata::all) {
    for (std::size_t i = 0; i < k; ++i) apply(i, value_at(i));
  } else if (header.metadata == Metadata::bitset) {
    // A word at a time: entry i is bit i % 8 of byte i / 8, so bit i % 64 of little-endian word i / 64.
    static_assert(std::endian::native == std::endian::little);
    std::size_t j = 0;
    for (std::size_t w = 0; w * 64 < entries && j < k; ++w) {
      std::uint64_t word;
      std::memcpy(&word, meta + w * sizeof word, sizeof word);
      if (entries - w * 64 < 64) word &= (std::uint64_t{1} << (entries - w * 64)) - 1;
      for (; word != 0 && j < k; word &= word - 1)
        apply(w * 64 + static_cast<std::size_t>(std::countr_zero(word)), value_at(j++));
    }
  } else if (header.metadata == Metadata::offsets) {
    for (std::size_t j = 0; j < k; ++j) {
      std::uint32_t offset;
      std::memcpy(&offset, meta + j * sizeof offset, sizeof offset);
      if (offset >= entries) throw Error("sync: an offset beyond its mirror list");
      apply(offset, value_at(j));
    }
  }
  return total;
}

}  // namespace courier::sync
