// Galois binary graphs (.gr, the format of Galois and Gluon), all little-endian:
//   uint64 version (1 or 2), edge data bytes per edge, vertex count n, edge count m;
//   uint64 out_index[n]: out_index[v] is the end of v's edges (v's start is out_index[v - 1], or 0);
//   targets[m]: uint32 in version 1, padded to 8 bytes; uint64 in version 2 (Galois's writer pads
//   an odd count there too, so both layouts are accepted, told apart by the file size);
//   edge data[m], `edge data bytes` each (0: none). Courier reads 4-byte edge data as weights.
#include <fmt/format.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <vector>

#include "courier/core/atomic_file.hpp"
#include "courier/core/error.hpp"
#include "courier/core/progress.hpp"
#include "formats.hpp"

namespace courier::graph::io {

static_assert(std::endian::native == std::endian::little, "Galois .gr files are read as is: little-endian hosts only");

namespace {

constexpr std::uint64_t kHeaderBytes = 32;

std::uint64_t load64(const char* at) {
  std::uint64_t value;
  std::memcpy(&value, at, 8);
  return value;
}

std::uint32_t load32(const char* at) {
  std::uint32_t value;
  std::memcpy(&value, at, 4);
  return value;
}

// The header checked against the file's size, and where each array starts.
struct Layout {
  std::uint64_t version = 0, data_bytes = 0;
  vertex_t n = 0;
  edge_t m = 0;
  std::uint64_t index_at = kHeaderBytes, targets_at = 0, data_at = 0;
  unsigned target_bytes = 4;

  // v's edges are [start(v), start(v + 1)).
  edge_t start(const char* file, vertex_t v) const { return v == 0 ? 0 : load64(file + index_at + (v - 1) * 8); }
};

Layout read_layout(const MappedFile& file, const ReadOptions& options) {
  const std::string& path = file.path();
  if (file.size() < kHeaderBytes)
    throw_input_error(path, 0,
                      fmt::format("truncated: {} bytes, less than the 32-byte Galois .gr header", file.size()));
  Layout l;
  l.version = load64(file.data());
  l.data_bytes = load64(file.data() + 8);
  l.n = load64(file.data() + 16);
  l.m = load64(file.data() + 24);
  if (l.version != 1 && l.version != 2)
    throw_input_error(path, 0, fmt::format("Galois .gr version {} at byte 0 is not 1 or 2", l.version));
  if (l.data_bytes != 0 && l.data_bytes != 4)
    throw_input_error(path, 0,
                      fmt::format("edge data of {} bytes per edge (byte 8): Courier reads none or 4-byte "
                                  "weights (uint32, or float with --binary-weight float)",
                                  l.data_bytes));
  if (options.binary_weight == WeightType::f32 && l.data_bytes == 0)
    throw_input_error(path, 0, "--binary-weight float asks for weights, and this Galois .gr file has no edge data");
  l.target_bytes = l.version == 1 ? 4 : 8;
  constexpr std::uint64_t kLimit = std::uint64_t{1} << 56;  // keeps the size arithmetic from overflowing
  const std::uint64_t target_bytes = l.m * l.target_bytes, padded = (target_bytes + 7) / 8 * 8;
  l.targets_at = l.index_at + l.n * 8;
  std::uint64_t expected = 0;
  if (l.n < kLimit && l.m < kLimit) {
    expected = l.targets_at + padded + l.m * l.data_bytes;
    l.data_at = l.targets_at + padded;
    // Galois's own writer pads an odd count of 8-byte targets by 8 bytes as well.
    if (file.size() != expected && l.version == 2 && l.data_bytes != 0 && l.m % 2 == 1 && file.size() == expected + 8) {
      expected += 8;
      l.data_at += 8;
    }
  }
  if (file.size() != expected)
    throw_input_error(path, 0,
                      fmt::format("size {} bytes does not match the Galois .gr header (version {}, {} vertices, "
                                  "{} edges, {} bytes of edge data each need {} bytes): the file is truncated "
                                  "or corrupted",
                                  file.size(), l.version, l.n, l.m, l.data_bytes, expected));
  // The out-index must rise from 0 to m, or rows would run outside the targets.
  edge_t previous = 0;
  for (vertex_t v = 0; v < l.n; ++v) {
    const edge_t end = load64(file.data() + l.index_at + v * 8);
    if (end < previous || end > l.m)
      throw_input_error(path, 0,
                        fmt::format("corrupted out-index at byte {}: vertex {} ends its edges at {}, {} (the "
                                    "index must rise to the {} edges)",
                                    l.index_at + v * 8, v, end,
                                    end < previous ? fmt::format("before {}", previous) : "beyond them", l.m));
    previous = end;
  }
  if (previous != l.m)
    throw_input_error(path, 0,
                      fmt::format("corrupted out-index: the last vertex ends its edges at {}, not at the {} "
                                  "edges the header declares (byte 24)",
                                  previous, l.m));
  return l;
}

}  // namespace

EdgeSlice read_galois_part(const MappedFile& file, const ReadOptions& options, std::uint64_t part,
                           std::uint64_t parts) {
  const Layout l = read_layout(file, options);
  const char* data = file.data();
  // Part p starts at the first vertex whose edges begin at or after m * p / parts (as .csr parts).
  const auto row_at = [&](std::uint64_t k) -> vertex_t {
    if (k == 0) return 0;
    if (k == parts) return l.n;
    if (l.m == 0) return l.n * k / parts;
    const edge_t goal = l.m * k / parts;
    vertex_t lo = 0, hi = l.n;  // the first v in [0, n] with start(v) >= goal
    while (lo < hi) {
      const vertex_t mid = lo + (hi - lo) / 2;
      if (l.start(data, mid) < goal)
        lo = mid + 1;
      else
        hi = mid;
    }
    return lo;
  };
  const vertex_t first = row_at(part), last = std::max(first, row_at(part + 1));
  const edge_t begin = l.start(data, first), end = l.start(data, last);

  EdgeSlice slice;
  slice.edges.num_vertices = l.n;
  Progress progress("reading " + file.path(), end - begin);
  slice.edges.edges.reserve(end - begin);
  for (vertex_t v = first; v < last; ++v) {
    const edge_t row_end = l.start(data, v + 1);
    for (edge_t k = l.start(data, v); k < row_end; ++k) {
      const char* at = data + l.targets_at + k * l.target_bytes;
      const vertex_t target = l.target_bytes == 4 ? load32(at) : load64(at);
      if (target >= l.n)
        throw_input_error(file.path(), 0,
                          fmt::format("edge {} (byte {}) of vertex {} points to {}, beyond the {} "
                                      "vertices the header declares",
                                      k, l.targets_at + k * l.target_bytes, v, target, l.n));
      slice.edges.edges.push_back({v, target});
    }
    progress.add(row_end - l.start(data, v));
  }
  if (l.data_bytes == 4) {
    const char* weights = data + l.data_at + begin * 4;
    if (options.binary_weight == WeightType::f32) {
      std::vector<float> w(end - begin);
      if (!w.empty()) std::memcpy(w.data(), weights, w.size() * 4);  // an empty part's data() may be null
      for (std::size_t i = 0; i < w.size(); ++i)
        if (!std::isfinite(w[i]))
          throw_input_error(file.path(), 0,
                            fmt::format("edge {} (byte {}) has weight {}, not a finite number", begin + i,
                                        l.data_at + (begin + i) * 4, w[i]));
      slice.edges.weights = std::move(w);
    } else {
      std::vector<std::uint32_t> w(end - begin);
      if (!w.empty()) std::memcpy(w.data(), weights, w.size() * 4);
      slice.edges.weights = std::move(w);
    }
  }
  slice.facts.records = end - begin;
  slice.facts.vertices = l.n;
  slice.declared_vertices = l.n;
  slice.declared_records = l.m;
  return slice;
}

EdgeList read_galois(const MappedFile& file, const ReadOptions& options) {
  return std::move(read_galois_part(file, options, 0, 1).edges);
}

bool is_galois(std::string_view first_bytes) {
  if (first_bytes.size() < 8) return false;
  const std::uint64_t version = load64(first_bytes.data());
  return version == 1 || version == 2;
}

void write_galois(const std::string& path, const EdgeList& edges) {
  const Csr csr = build_csr(edges);
  const vertex_t n = csr.num_vertices();
  const edge_t m = csr.num_edges();
  const std::uint64_t version = n <= (std::uint64_t{1} << 32) ? 1 : 2;
  const std::uint64_t data_bytes = csr.weight_type() == WeightType::none ? 0 : 4;
  AtomicFile file(path);
  const std::uint64_t header[4] = {version, data_bytes, n, m};
  file.write(header, sizeof header);
  // Written in blocks so no second copy of an array is made.
  constexpr std::size_t kBlock = 1 << 16;
  std::vector<char> buffer;
  const auto flush = [&] {
    file.write(buffer.data(), buffer.size());
    buffer.clear();
  };
  const auto put = [&](const void* value, std::size_t bytes) {
    buffer.insert(buffer.end(), static_cast<const char*>(value), static_cast<const char*>(value) + bytes);
    if (buffer.size() >= kBlock) flush();
  };
  for (vertex_t v = 0; v < n; ++v) put(&csr.offsets()[v + 1], 8);
  for (edge_t k = 0; k < m; ++k) {
    if (version == 1) {
      const auto target = static_cast<std::uint32_t>(csr.targets()[k]);
      put(&target, 4);
    } else {
      put(&csr.targets()[k], 8);
    }
  }
  const std::uint64_t zero = 0;
  if (version == 1 && m % 2 == 1) put(&zero, 4);
  std::visit(
      [&](const auto& w) {
        if constexpr (!std::is_same_v<std::decay_t<decltype(w)>, std::monostate>)
          for (edge_t k = 0; k < m; ++k) put(&w[k], 4);
      },
      csr.weights());
  flush();
  file.commit();
}

}  // namespace courier::graph::io
