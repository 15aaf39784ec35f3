#pragma once
// The checksums of .csr files hash each array as independent 16 MiB blocks, combined in order: big
// arrays hash on all cores, the value stays the same whatever the thread count, and a reader can
// hash the blocks it reads as it goes (parts of a file, windows of a copy) and combine them later.
#include <algorithm>
#include <cstdint>
#include <span>

#include "courier/core/hash.hpp"

namespace courier::graph::io {

constexpr std::uint64_t kBlock = 16u << 20;

inline std::uint64_t block_count(std::uint64_t size) { return (size + kBlock - 1) / kBlock; }

// Block b of the `size` bytes at `data`.
inline std::uint64_t hash_block(const void* data, std::uint64_t size, std::uint64_t seed, std::uint64_t b) {
  return hash_bytes(static_cast<const char*>(data) + b * kBlock, std::min(kBlock, size - b * kBlock), seed + b);
}

inline std::uint64_t combine_blocks(std::uint64_t size, std::uint64_t seed, std::span<const std::uint64_t> hashes) {
  std::uint64_t h = hash_combine(seed, size);
  for (std::uint64_t block_hash : hashes) h = hash_combine(h, block_hash);
  return h;
}

}  // namespace courier::graph::io
