#include "courier/core/hash.hpp"

#include <cstring>

namespace courier {

namespace {
constexpr std::uint64_t kOdd1 = 0x9E3779B97F4A7C15ull;  // 2^64 / golden ratio
constexpr std::uint64_t kOdd2 = 0xC2B2AE3D27D4EB4Full;
constexpr int kLanes = 8;

std::uint64_t load64(const unsigned char* p) {
  std::uint64_t word;
  std::memcpy(&word, p, sizeof word);
  return word;
}

// One lane step: a bijection of (lane ^ word), so any single changed word changes the lane.
std::uint64_t step(std::uint64_t lane, std::uint64_t word) {
  lane = (lane ^ word) * kOdd2;
  return lane ^ (lane >> 29);
}

// Spreads every input bit over the whole output.
std::uint64_t finish(std::uint64_t x) {
  x ^= x >> 31;
  x *= kOdd1;
  x ^= x >> 27;
  x *= kOdd2;
  return x ^ (x >> 33);
}
}  // namespace

std::uint64_t hash_combine(std::uint64_t a, std::uint64_t b) { return finish(a * kOdd1 + b); }

std::uint64_t hash_bytes(const void* data, std::size_t size, std::uint64_t seed) {
  const auto* p = static_cast<const unsigned char*>(data);
  std::uint64_t lane[kLanes];
  for (int i = 0; i < kLanes; ++i) lane[i] = seed + kOdd1 * static_cast<std::uint64_t>(i + 1);

  std::size_t offset = 0;
  for (; offset + 8 * kLanes <= size; offset += 8 * kLanes)
    for (int i = 0; i < kLanes; ++i) lane[i] = step(lane[i], load64(p + offset + 8 * i));

  int next = 0;
  for (; offset + 8 <= size; offset += 8, ++next) lane[next] = step(lane[next], load64(p + offset));
  if (offset < size) {
    unsigned char tail[8] = {};
    std::memcpy(tail, p + offset, size - offset);
    lane[next] = step(lane[next], load64(tail));
  }

  std::uint64_t h = finish(seed ^ (size * kOdd2));
  for (int i = 0; i < kLanes; ++i) h = hash_combine(h, lane[i]);
  return h;
}

}  // namespace courier
