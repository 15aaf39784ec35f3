#pragma once
// BitReader: the instantaneous codes of WebGraph's bit streams (Boldi and Vigna, "The WebGraph
// Framework I/II"), read most significant bit first. Reading past the end, or a code too long for
// 64 bits, throws InputError naming the file and the bit offset.
#include <fmt/format.h>

#include <bit>
#include <cstdint>
#include <cstring>
#include <string>

#include "courier/core/error.hpp"

namespace courier::graph::io {

enum class Code : std::uint8_t { gamma, delta, zeta, unary, nibble, golomb };

class BitReader {
 public:
  BitReader(const std::string& path, const char* data, std::uint64_t bytes)
      : path_(&path), data_(reinterpret_cast<const unsigned char*>(data)), bytes_(bytes), bits_(bytes * 8) {}

  std::uint64_t position() const { return position_; }
  void seek(std::uint64_t bit) {
    if (bit > bits_) fail(bit, "is beyond the end of the file");
    position_ = bit;
  }

  // `count` bits (at most 64) as a number, the first one most significant.
  std::uint64_t bits(unsigned count) {
    if (count == 0) return 0;
    if (count > 56) {
      const std::uint64_t high = bits(count - 32);
      return high << 32 | bits(32);
    }
    need(count);
    const std::uint64_t value = window() >> (64 - count);
    position_ += count;
    return value;
  }

  // n zeros then a one.
  std::uint64_t unary() {
    std::uint64_t zeros = 0;
    for (;;) {
      if (position_ >= bits_) fail(position_, "ends inside a unary code");
      const std::uint64_t w = window();
      const unsigned available = static_cast<unsigned>(std::min<std::uint64_t>(57, bits_ - position_));
      const unsigned leading = static_cast<unsigned>(std::countl_zero(w));
      if (leading < available) {
        position_ += leading + 1;
        return zeros + leading;
      }
      zeros += available;
      position_ += available;
      if (zeros > bits_) fail(position_, "holds a unary code longer than the file");
    }
  }

  std::uint64_t gamma() {
    const std::uint64_t msb = long_prefix(unary());
    return ((std::uint64_t{1} << msb) | bits(static_cast<unsigned>(msb))) - 1;
  }

  std::uint64_t delta() {
    const std::uint64_t msb = long_prefix(gamma());
    return ((std::uint64_t{1} << msb) | bits(static_cast<unsigned>(msb))) - 1;
  }

  // zeta_k: h in unary, then x + 1 in [2^hk, 2^(h+1)k) as a minimal binary code of that interval.
  std::uint64_t zeta(unsigned k) {
    const std::uint64_t h = unary();
    if ((h + 1) * k > 63) fail(position_, fmt::format("holds a zeta_{} code too long for 64 bits", k));
    const std::uint64_t left = std::uint64_t{1} << (h * k);
    const std::uint64_t m = bits(static_cast<unsigned>(h * k + k - 1));
    if (m < left) return m + left - 1;
    return (m << 1) + bits(1) - 1;
  }

  // Groups of 4 bits, the first bit of a group set on the last one, 3 bits of the number each.
  std::uint64_t nibble() {
    std::uint64_t value = 0;
    for (int groups = 0;; ++groups) {
      if (groups == 21) fail(position_, "holds a nibble code too long for 64 bits");
      const std::uint64_t group = bits(4);
      value = value << 3 | (group & 7);
      if (group & 8) return value;
    }
  }

  // Golomb with modulus b: the quotient in unary, the remainder in minimal binary.
  std::uint64_t golomb(std::uint64_t b) {
    if (b == 0) return 0;
    const std::uint64_t quotient = unary();
    const unsigned log2b = static_cast<unsigned>(std::bit_width(b) - 1);
    const std::uint64_t m = (std::uint64_t{2} << log2b) - b;
    std::uint64_t x = bits(log2b);
    if (x >= m) x = (x << 1) + bits(1) - m;
    return quotient * b + x;
  }

  std::uint64_t read(Code code, unsigned k) {
    switch (code) {
      case Code::gamma:
        return gamma();
      case Code::delta:
        return delta();
      case Code::zeta:
        return zeta(k);
      case Code::unary:
        return unary();
      case Code::nibble:
        return nibble();
      case Code::golomb:
        return golomb(k);
    }
    return 0;
  }

  [[noreturn]] void fail(std::uint64_t bit, const std::string& what) const {
    throw_input_error(
        *path_, 0,
        fmt::format("the bit stream at bit {} (byte {}) {}: the file is truncated or corrupted", bit, bit / 8, what));
  }

 private:
  void need(unsigned count) const {
    if (bits_ - position_ < count) fail(position_, "ends inside a code");
  }

  std::uint64_t long_prefix(std::uint64_t msb) const {
    if (msb > 63) fail(position_, "holds a code too long for 64 bits");
    return msb;
  }

  // At least 57 bits from position_, left-aligned (zeros past the end of the data).
  std::uint64_t window() const {
    const std::uint64_t byte = position_ / 8;
    std::uint64_t w = 0;
    if (byte + 8 <= bytes_) {
      std::memcpy(&w, data_ + byte, 8);
      if constexpr (std::endian::native == std::endian::little) w = __builtin_bswap64(w);
    } else {
      for (std::uint64_t i = 0; i < 8; ++i) w = w << 8 | (byte + i < bytes_ ? data_[byte + i] : 0);
    }
    return w << (position_ % 8);
  }

  const std::string* path_;
  const unsigned char* data_;
  std::uint64_t bytes_, bits_;
  std::uint64_t position_ = 0;
};

}  // namespace courier::graph::io
