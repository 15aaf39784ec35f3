#pragma once
// A fast non-cryptographic 64-bit hash for checksums of large arrays (file integrity, not
// security). Eight independent multiply-xorshift lanes keep the CPU busy, so it runs at memory
// speed (many GB/s). Stable across runs and machines: values are written into files.
#include <cstddef>
#include <cstdint>

namespace courier {

std::uint64_t hash_bytes(const void* data, std::size_t size, std::uint64_t seed = 0);

// Mixes two hashes into one (order matters).
std::uint64_t hash_combine(std::uint64_t a, std::uint64_t b);

}  // namespace courier
