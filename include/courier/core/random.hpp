#pragma once
// Counter-based random numbers: the i-th number of a stream is a pure function of (key, i), so any
// thread or rank can draw any part of a stream without drawing what comes before it. The mix is
// SplitMix64's (Steele, Lea, Flood 2014): a Weyl sequence key + i * gamma through a 64-bit
// finalizer, which passes BigCrush for consecutive counters.
#include <cstdint>

namespace courier {

inline constexpr std::uint64_t kGoldenGamma = 0x9e3779b97f4a7c15ULL;

// A bijective 64-bit finalizer: every output bit depends on every input bit.
constexpr std::uint64_t mix64(std::uint64_t x) {
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// The key of an independent stream `stream` under `seed` (e.g. one stream for endpoints, another
// for weights).
constexpr std::uint64_t stream_key(std::uint64_t seed, std::uint64_t stream) {
  return mix64(mix64(seed) ^ (stream * kGoldenGamma + 0x632be59bd9b4e019ULL));
}

// The number at position `counter` of the stream with key `key`.
constexpr std::uint64_t counter_random(std::uint64_t key, std::uint64_t counter) {
  return mix64(key + (counter + 1) * kGoldenGamma);
}

// A uniform integer in [0, bound) from 64 random bits (multiply-shift; the bias is below
// bound / 2^64).
inline std::uint64_t random_below(std::uint64_t random_bits, std::uint64_t bound) {
  return static_cast<std::uint64_t>((static_cast<unsigned __int128>(random_bits) * bound) >> 64);
}

// A sequential generator over the same mix, for code that draws numbers one after another.
class SplitMix64 {
 public:
  explicit constexpr SplitMix64(std::uint64_t seed) : state_(seed) {}
  constexpr std::uint64_t next() {
    state_ += kGoldenGamma;
    return mix64(state_);
  }

 private:
  std::uint64_t state_;
};

}  // namespace courier
