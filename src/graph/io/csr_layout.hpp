#pragma once
// The layout of Courier's .csr files (see csr_format.cpp) and their checksum, for the readers and
// writers in graph/io: a 64-byte header, then offsets (n + 1 uint64), targets (m uint64) and
// weights (m uint32 or float, padded to 8 bytes), all little-endian.
#include <cstdint>
#include <vector>

#include "courier/core/mapped_file.hpp"
#include "courier/core/progress.hpp"
#include "courier/graph/types.hpp"

namespace courier::graph::io {

constexpr char kMagic[8] = {'C', 'O', 'U', 'R', 'C', 'S', 'R', '\n'};
constexpr std::uint32_t kVersion = 1;

struct Header {
  char magic[8];
  std::uint32_t version;
  std::uint32_t weight_type;  // WeightType
  std::uint64_t num_vertices;
  std::uint64_t num_edges;
  std::uint64_t checksum;  // of this header (with checksum = 0) and of the three arrays
  std::uint64_t flags;     // kSymmetric; 0 in files written before it
  std::uint64_t reserved[2];
};
constexpr std::uint64_t kSymmetric = 1;  // Csr::symmetric()
static_assert(sizeof(Header) == 64);

inline std::uint64_t padded8(std::uint64_t bytes) { return (bytes + 7) / 8 * 8; }

struct Arrays {
  const edge_t* offsets;
  std::uint64_t offset_count;
  const vertex_t* targets;
  const void* weights;  // nullptr if none
};

// The arrays the checksum covers, in the order it combines them, each with its seed.
struct Hashed {
  const void* data;
  std::uint64_t size;
  std::uint64_t seed;
};
// Where the targets and the weights start in a file of n vertices and m edges, in bytes.
inline std::uint64_t targets_at(std::uint64_t n) { return sizeof(Header) + (n + 1) * 8; }
inline std::uint64_t weights_at(std::uint64_t n, std::uint64_t m) { return targets_at(n) + m * 8; }
// The arrays of a file whose bytes start at `base`, as its header lays them out.
inline Arrays arrays_in(const char* base, const Header& header) {
  const std::uint64_t n = header.num_vertices, m = header.num_edges;
  return {reinterpret_cast<const edge_t*>(base + sizeof(Header)), n + 1,
          reinterpret_cast<const vertex_t*>(base + targets_at(n)),
          header.weight_type == static_cast<std::uint32_t>(WeightType::none) ? nullptr : base + weights_at(n, m)};
}

std::uint64_t header_hash(Header header);
std::vector<Hashed> hashed_arrays(const Header& header, const Arrays& arrays);
// The header's checksum field: of the header (with checksum = 0) and of the arrays, block by block
// on all cores. With `release`, the mapping the arrays are in: each block's pages go once hashed.
std::uint64_t checksum(const Header& header, const Arrays& arrays, Progress& progress,
                       const MappedFile* release = nullptr);

}  // namespace courier::graph::io
