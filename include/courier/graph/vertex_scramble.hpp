#pragma once
// VertexScramble: a seeded bijection of [0, 2^scale), used (as Graph500 does) to spread the
// Kronecker generator's high-degree vertices, which all have many zero bits, over the id range.
// It needs no table: a few rounds of invertible steps restricted to `scale` bits — add a key,
// multiply by an odd key, xor the high half into the low half — each a bijection mod 2^scale.
#include <cstdint>

#include "courier/core/random.hpp"
#include "courier/graph/types.hpp"

namespace courier::graph {

class VertexScramble {
 public:
  VertexScramble(int scale, std::uint64_t seed)
      : mask_(scale >= 64 ? ~0ULL : (1ULL << scale) - 1), shift_(scale / 2 + 1) {
    for (int r = 0; r < kRounds; ++r) {
      add_[r] = counter_random(stream_key(seed, kStream), 2 * r) & mask_;
      multiply_[r] = (counter_random(stream_key(seed, kStream), 2 * r + 1) | 1) & mask_;
    }
  }

  vertex_t operator()(vertex_t v) const {
    for (int r = 0; r < kRounds; ++r) {
      v = (v + add_[r]) & mask_;
      v = (v * multiply_[r]) & mask_;
      v ^= v >> shift_;
    }
    return v;
  }

 private:
  static constexpr int kRounds = 4;
  static constexpr std::uint64_t kStream = 0x5c4a3b1e;  // apart from the generators' streams
  std::uint64_t mask_;
  int shift_;
  std::uint64_t add_[kRounds];
  std::uint64_t multiply_[kRounds];
};

}  // namespace courier::graph
