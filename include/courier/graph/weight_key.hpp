#pragma once
// Weights as 32-bit keys that order like the weights, so that sorting (target, key) pairs sorts
// edges by (target, weight) in one pass, and the weight comes back from its key. Integers are
// their own keys; floats map to a total order (-NaN < -inf < ... < -0 < +0 < ... < inf < NaN).
#include <bit>
#include <cstdint>
#include <type_traits>

namespace courier::graph {

inline std::uint32_t weight_key(std::uint32_t w) { return w; }
inline std::uint32_t weight_key(float w) {
  const auto bits = std::bit_cast<std::uint32_t>(w);
  return bits & 0x80000000u ? ~bits : bits | 0x80000000u;
}

template <class W>
W weight_of_key(std::uint32_t key) {
  if constexpr (std::is_same_v<W, float>)
    return std::bit_cast<float>(key & 0x80000000u ? key & 0x7fffffffu : ~key);
  else
    return key;
}

}  // namespace courier::graph
