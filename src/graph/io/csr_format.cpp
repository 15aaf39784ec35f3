// Courier's binary CSR (.csr): a 64-byte header, then offsets (n + 1 uint64), targets (m uint64)
// and weights (m uint32 or float, padded to 8 bytes), all little-endian. read_csr maps the file
// and the Csr borrows its arrays from the mapping: loading costs the checksum pass, not a copy.
#include <algorithm>
#include <bit>
#include <cstring>
#include <memory>
#include <span>
#include <thread>
#include <vector>

#include "block_hash.hpp"
#include "courier/core/atomic_file.hpp"
#include "courier/core/hash.hpp"
#include "courier/core/parallel.hpp"
#include "courier/core/progress.hpp"
#include "courier/graph/partitioned_csr.hpp"
#include "csr_layout.hpp"
#include "formats.hpp"
#include "numbers.hpp"

namespace courier::graph::io {

static_assert(std::endian::native == std::endian::little, ".csr files are mapped as is: little-endian hosts only");

namespace {

std::uint64_t hash_array(const void* data, std::uint64_t size, std::uint64_t seed, Progress& progress,
                         const MappedFile* release) {
  const std::uint64_t blocks = block_count(size);
  std::vector<std::uint64_t> hashes(blocks);
  const auto hash_one = [&](std::uint64_t b) {
    hashes[b] = hash_block(data, size, seed, b);
    const std::uint64_t bytes = std::min(kBlock, size - b * kBlock);
    if (release) release->release(static_cast<const char*>(data) + b * kBlock, bytes);
    progress.add(bytes);
  };
  const unsigned threads = static_cast<unsigned>(
      std::min<std::uint64_t>(std::max(1u, std::thread::hardware_concurrency()), blocks));
  if (threads <= 1) {
    for (std::uint64_t b = 0; b < blocks; ++b) hash_one(b);
  } else {
    std::vector<std::thread> workers;
    for (unsigned t = 0; t < threads; ++t)
      workers.emplace_back([&, t] {
        for (std::uint64_t b = t; b < blocks; b += threads) hash_one(b);
      });
    for (auto& worker : workers) worker.join();
  }
  return combine_blocks(size, seed, hashes);
}

[[noreturn]] void throw_checksum_mismatch(const std::string& path, std::uint64_t declared, std::uint64_t actual) {
  throw_input_error(path, 0,
                    fmt::format("checksum mismatch (header {:016x}, data {:016x}): the file is corrupted; "
                                "write it again from its source",
                                declared, actual));
}

const void* weights_data(const Csr& csr) {
  return std::visit(
      [](const auto& w) -> const void* {
        if constexpr (std::is_same_v<std::decay_t<decltype(w)>, std::monostate>)
          return nullptr;
        else
          return w.data();
      },
      csr.weights());
}

}  // namespace

std::uint64_t header_hash(Header header) {
  header.checksum = 0;
  return hash_bytes(&header, sizeof header, 1);
}

std::vector<Hashed> hashed_arrays(const Header& header, const Arrays& arrays) {
  std::vector<Hashed> out{{arrays.offsets, arrays.offset_count * 8, 2}, {arrays.targets, header.num_edges * 8, 3}};
  if (arrays.weights) out.push_back({arrays.weights, header.num_edges * 4, 4});
  return out;
}

std::uint64_t checksum(const Header& header, const Arrays& arrays, Progress& progress, const MappedFile* release) {
  std::uint64_t h = header_hash(header);
  for (const Hashed& a : hashed_arrays(header, arrays))
    h = hash_combine(h, hash_array(a.data, a.size, a.seed, progress, release));
  return h;
}

void write_csr_file(const std::string& path, const Csr& csr) {
  const edge_t zero = 0;
  const Arrays arrays{csr.offsets().empty() ? &zero : csr.offsets().data(), csr.num_vertices() + 1,
                      csr.targets().data(), weights_data(csr)};
  Header header{};
  std::memcpy(header.magic, kMagic, sizeof kMagic);
  header.version = kVersion;
  header.weight_type = static_cast<std::uint32_t>(csr.weight_type());
  header.num_vertices = csr.num_vertices();
  header.num_edges = csr.num_edges();
  header.flags = csr.symmetric() ? kSymmetric : 0;
  const std::uint64_t weight_bytes = arrays.weights ? header.num_edges * 4 : 0;
  Progress progress("writing " + path, 2 * (arrays.offset_count * 8 + header.num_edges * 8 + weight_bytes));
  header.checksum = checksum(header, arrays, progress);

  AtomicFile file(path);
  const auto write = [&](const void* data, std::uint64_t size) {
    constexpr std::uint64_t kStep = 64u << 20;  // in steps, for progress
    for (std::uint64_t at = 0; at < size; at += kStep) {
      file.write(static_cast<const char*>(data) + at, std::min(kStep, size - at));
      progress.add(std::min(kStep, size - at));
    }
  };
  write(&header, sizeof header);
  write(arrays.offsets, arrays.offset_count * 8);
  write(arrays.targets, header.num_edges * 8);
  if (arrays.weights) {
    write(arrays.weights, weight_bytes);
    const char padding[8] = {};
    write(padding, padded8(weight_bytes) - weight_bytes);
  }
  file.commit();
}

namespace {

// A .csr file mapped, its header and size checked, its offsets checked (and with
// options.verify_checksum, its checksum).
struct Mapped {
  std::shared_ptr<const MappedFile> file;
  Header header;
  WeightType type;
  Arrays arrays;
};

// scan_targets = false leaves the targets to the caller, which checks those it reads (a part of the
// file should not read, and make resident, every other part's).
Mapped map_csr(const std::string& path, const ReadOptions& options, bool scan_targets = true) {
  // Pages are faulted in up front when the checksum will read them all anyway.
  const auto file = MappedFile::open(path, {.populate = options.verify_checksum});
  if (file->size() < sizeof(Header))
    throw_input_error(path, 0, fmt::format("truncated: {} bytes, less than the {}-byte .csr header", file->size(), sizeof(Header)));
  Header header;
  std::memcpy(&header, file->data(), sizeof header);
  if (std::memcmp(header.magic, kMagic, sizeof kMagic) != 0)
    throw_input_error(path, 0, "not a Courier .csr file (wrong magic bytes at byte 0); was it written by Courier?");
  if (header.version != kVersion)
    throw_input_error(path, 0, fmt::format("unsupported .csr version {} (this build reads version {}); rewrite the file "
                                           "with this build", header.version, kVersion));
  if (header.weight_type > static_cast<std::uint32_t>(WeightType::f32))
    throw_input_error(path, 0, fmt::format("corrupted header: unknown weight type {} at byte 12", header.weight_type));
  const auto type = static_cast<WeightType>(header.weight_type);
  const std::uint64_t n = header.num_vertices, m = header.num_edges;
  constexpr std::uint64_t kLimit = std::uint64_t{1} << 56;  // keeps the size arithmetic from overflowing
  const std::uint64_t weight_bytes = type == WeightType::none ? 0 : m * 4;
  const std::uint64_t expected = n < kLimit && m < kLimit ? weights_at(n, m) + padded8(weight_bytes) : 0;
  if (file->size() != expected)
    throw_input_error(path, 0, fmt::format("size {} bytes does not match the header ({} vertices, {} edges, {} weights "
                                           "need {} bytes): the file is truncated or corrupted",
                                           file->size(), n, m, to_string(type), expected));

  const Arrays arrays = arrays_in(file->data(), header);
  if (options.verify_checksum) {
    Progress progress("checking " + path, file->size());
    const std::uint64_t actual = checksum(header, arrays, progress);
    if (actual != header.checksum) throw_checksum_mismatch(path, header.checksum, actual);
  }
  // Cheap structural checks even without the checksum, so a bad file cannot send reads astray.
  if (arrays.offsets[0] != 0 || arrays.offsets[n] != m)
    throw_input_error(path, 0, fmt::format("corrupted offsets: they run from {} to {} but must run from 0 to the {} edges",
                                           arrays.offsets[0], arrays.offsets[n], m));
  for (vertex_t v = 0; v < n; ++v)
    if (arrays.offsets[v + 1] < arrays.offsets[v])
      throw_input_error(path, 0, fmt::format("corrupted offsets: not monotone at vertex {} (byte {})", v,
                                             sizeof(Header) + (v + 1) * 8));
  // Targets below n: a body whose checksum matches (another writer's) may still send reads astray.
  // The maximum first, a loop that vectorises; the culprit is looked for only when there is one.
  vertex_t largest = 0;
  if (scan_targets)
    for (std::uint64_t k = 0; k < m; ++k) largest = std::max(largest, arrays.targets[k]);
  if (m > 0 && largest >= n) {
    std::uint64_t k = 0;
    while (arrays.targets[k] < n) ++k;
    const auto source =
        static_cast<vertex_t>(std::upper_bound(arrays.offsets, arrays.offsets + n + 1, k) - arrays.offsets - 1);
    throw_input_error(
        path, 0,
        fmt::format("corrupted edge {} (byte {}): vertex {} points to {}, but the graph has "
                    "vertices 0..{}: the file is corrupted, or its writer does not follow the .csr format",
                    k, targets_at(n) + k * 8, source, arrays.targets[k], n == 0 ? 0 : n - 1));
  }

  return Mapped{file, header, type, arrays};
}

// Rows [first, last) of a mapped file, borrowed from the mapping.
CsrRows rows_of(const Mapped& mapped, vertex_t first, vertex_t last) {
  const std::shared_ptr<const void> keep_alive = mapped.file;
  const edge_t begin = mapped.arrays.offsets[first], end = mapped.arrays.offsets[last];
  CsrRows rows;
  rows.first = first;
  rows.offsets = Buffer<edge_t>(keep_alive, mapped.arrays.offsets + first, last - first + 1);
  rows.targets = Buffer<vertex_t>(keep_alive, mapped.arrays.targets + begin, end - begin);
  if (mapped.type == WeightType::u32)
    rows.weights = Buffer<std::uint32_t>(keep_alive, static_cast<const std::uint32_t*>(mapped.arrays.weights) + begin,
                                         end - begin);
  else if (mapped.type == WeightType::f32)
    rows.weights = Buffer<float>(keep_alive, static_cast<const float*>(mapped.arrays.weights) + begin, end - begin);
  rows.file = mapped.file;
  rows.symmetric = (mapped.header.flags & kSymmetric) != 0;
  return rows;
}

// One pass over a part's blocks of the checksum's arrays, on all cores: the part's targets (edges
// [edges.begin, edges.end)) checked below n, and with `hash` the blocks that start in its rows
// (offset entries [rows.begin, rows.end)) or its edges hashed. An edge array's block is read once:
// its pages go as soon as it is done. Returns the hashed blocks as (number, hash), numbered through
// the arrays in the checksum's order.
std::vector<std::pair<std::uint64_t, std::uint64_t>> read_part_blocks(const std::string& path, const Mapped& mapped,
                                                                      std::span<const Hashed> arrays, IndexRange rows,
                                                                      IndexRange edges, bool hash) {
  struct Job {
    std::size_t array;
    std::uint64_t block, number;
    IndexRange scan;  // targets to check, edge ids
    bool hash;
  };
  std::vector<Job> jobs;
  std::uint64_t numbered = 0;
  for (std::size_t a = 0; a < arrays.size(); ++a) {
    const std::uint64_t width = a == 0 ? 8 : arrays[a].size / std::max<std::uint64_t>(1, mapped.header.num_edges);
    const IndexRange mine = a == 0 ? rows : edges;
    const std::uint64_t from = mine.begin * width, to = mine.end * width;
    // Blocks holding any of my bytes: the first may start in the part before, and is then only read.
    for (std::uint64_t b = from / kBlock; b * kBlock < to; ++b) {
      const bool starts_here = b * kBlock >= from;
      IndexRange scan{};
      if (a == 1) scan = {std::max(from, b * kBlock) / 8, std::min(to, (b + 1) * kBlock) / 8};
      if ((hash && starts_here) || scan.end > scan.begin)
        jobs.push_back({a, b, numbered + b, scan, hash && starts_here});
    }
    numbered += block_count(arrays[a].size);
  }
  const vertex_t n = mapped.header.num_vertices;
  const vertex_t* targets = mapped.arrays.targets;
  std::vector<std::uint64_t> hashes(jobs.size());
  std::vector<std::uint64_t> bad(parallel_parts(jobs.size(), threads_for(jobs.size(), 1)), ~std::uint64_t{0});
  parallel_for(jobs.size(), threads_for(jobs.size(), 1), [&](std::uint64_t i0, std::uint64_t i1, unsigned t) {
    for (std::uint64_t i = i0; i < i1; ++i) {
      const Job& job = jobs[i];
      const Hashed& array = arrays[job.array];
      vertex_t largest = 0;  // the maximum first, a loop that vectorises; the culprit only when there is one
      for (std::uint64_t k = job.scan.begin; k < job.scan.end; ++k) largest = std::max(largest, targets[k]);
      if (largest >= n) {
        std::uint64_t k = job.scan.begin;
        while (targets[k] < n) ++k;
        bad[t] = std::min(bad[t], k);
      }
      if (job.hash) hashes[i] = hash_block(array.data, array.size, array.seed, job.block);
      if (job.array > 0) {
        const auto* data = static_cast<const char*>(array.data);
        const std::uint64_t begin = job.block * kBlock, size = std::min(kBlock, array.size - begin);
        mapped.file->release(data + begin, size);
      }
    }
  });
  if (const std::uint64_t k = *std::min_element(bad.begin(), bad.end()); k != ~std::uint64_t{0})
    throw_input_error(path, 0,
                      fmt::format("corrupted targets: edge {} (byte {}) points to {}, beyond the {} vertices: the "
                                  "file is corrupted, or its writer does not follow the .csr format",
                                  k, targets_at(n) + k * 8, targets[k], n));
  std::vector<std::pair<std::uint64_t, std::uint64_t>> out;
  for (std::size_t i = 0; i < jobs.size(); ++i)
    if (jobs[i].hash) out.emplace_back(jobs[i].number, hashes[i]);
  return out;
}

}  // namespace

Csr read_csr_file(const std::string& path, const ReadOptions& options) {
  if (is_partitioned_csr(path))  // every part's edges, back in global ids
    return build_csr(read_partitioned_edges(path, 0, read_partitioned_header(path).parts, options.verify_checksum));
  const Mapped mapped = map_csr(path, options);
  const std::uint64_t n = mapped.header.num_vertices, m = mapped.header.num_edges;
  const WeightType type = mapped.type;
  const Arrays& arrays = mapped.arrays;
  const std::shared_ptr<const void> keep_alive = mapped.file;
  Buffer<edge_t> offsets = n == 0 ? Buffer<edge_t>() : Buffer<edge_t>(keep_alive, arrays.offsets, n + 1);
  Buffer<vertex_t> targets(keep_alive, arrays.targets, m);
  CsrWeights weights;
  if (type == WeightType::u32) weights = Buffer<std::uint32_t>(keep_alive, static_cast<const std::uint32_t*>(arrays.weights), m);
  if (type == WeightType::f32) weights = Buffer<float>(keep_alive, static_cast<const float*>(arrays.weights), m);
  Csr csr(std::move(offsets), std::move(targets), std::move(weights));
  csr.set_symmetric((mapped.header.flags & kSymmetric) != 0);
  return csr;
}

}  // namespace courier::graph::io

namespace courier::graph::io {

namespace {

// Part p of P of a partitioned file (at other rank counts than its own, and for other engines):
// the file's parts [N * p / P, N * (p + 1) / P) as edges in global ids, each part checked alone.
EdgeSlice read_partitioned_slice(const std::string& path, const ReadOptions& options, std::uint64_t part,
                                 std::uint64_t parts) {
  const PartitionedCsrHeader header = read_partitioned_header(path);
  const std::uint64_t n = header.parts;
  EdgeSlice slice;
  slice.edges = read_partitioned_edges(path, static_cast<std::uint32_t>(n * part / parts),
                                       static_cast<std::uint32_t>(n * (part + 1) / parts), options.verify_checksum);
  slice.facts.records = slice.edges.edges.size();
  slice.facts.vertices = header.num_vertices;
  slice.declared_vertices = header.num_vertices;
  slice.declared_records = header.num_edges;
  return slice;
}

}  // namespace

EdgeSlice read_csr_part(const std::string& path, const ReadOptions& options, std::uint64_t part, std::uint64_t parts) {
  if (is_partitioned_csr(path)) return read_partitioned_slice(path, options, part, parts);
  ReadOptions structural = options;
  structural.verify_checksum = false;  // each part hashes its own blocks below; finish_slice checks them together
  const Mapped mapped = map_csr(path, structural, false);
  const vertex_t n = mapped.header.num_vertices;
  const edge_t m = mapped.header.num_edges;
  const std::span<const edge_t> offsets(mapped.arrays.offsets, n + 1);
  // Part p starts at the first row whose edges begin at or after m * p / parts; rows of empty
  // graphs are cut by count.
  const auto row_at = [&](std::uint64_t k) -> vertex_t {
    if (k == 0) return 0;
    if (k == parts) return n;
    if (m == 0) return n * k / parts;
    return static_cast<vertex_t>(std::lower_bound(offsets.begin(), offsets.end() - 1, m * k / parts) - offsets.begin());
  };
  const vertex_t first = row_at(part), last = std::max(first, row_at(part + 1));
  const edge_t begin = offsets[first], end = offsets[last];
  const vertex_t* targets = mapped.arrays.targets;
  const MappedFile& file = *mapped.file;
  // The structural check read every offset: keep this part's only (8 bytes a vertex on every rank).
  file.release(offsets.data(), first * sizeof(edge_t));
  file.release(offsets.data() + last + 1, (n - last) * sizeof(edge_t));
  const std::vector<Hashed> hashed = hashed_arrays(mapped.header, mapped.arrays);
  std::vector<std::pair<std::uint64_t, std::uint64_t>> checksum_blocks = read_part_blocks(
      path, mapped, hashed, {first, part + 1 == parts ? n + 1 : last}, {begin, end}, options.verify_checksum);

  EdgeSlice slice;
  slice.edges.num_vertices = n;
  if (options.csr_rows) {
    slice.rows = rows_of(mapped, first, last);
    if (mapped.type == WeightType::u32) slice.edges.weights = std::vector<std::uint32_t>();
    if (mapped.type == WeightType::f32) slice.edges.weights = std::vector<float>();
  } else {
    slice.edges.edges.reserve(end - begin);
    for (vertex_t v = first; v < last; ++v)
      for (edge_t k = offsets[v]; k < offsets[v + 1]; ++k) slice.edges.edges.push_back({v, targets[k]});
    file.release(targets + begin, (end - begin) * sizeof(vertex_t));
    if (mapped.type == WeightType::u32) {
      const auto* w = static_cast<const std::uint32_t*>(mapped.arrays.weights);
      slice.edges.weights = std::vector<std::uint32_t>(w + begin, w + end);
    } else if (mapped.type == WeightType::f32) {
      const auto* w = static_cast<const float*>(mapped.arrays.weights);
      slice.edges.weights = std::vector<float>(w + begin, w + end);
    }
    if (mapped.arrays.weights)
      file.release(static_cast<const char*>(mapped.arrays.weights) + begin * 4, (end - begin) * 4);
  }
  slice.facts.records = end - begin;
  slice.facts.vertices = n;
  slice.declared_vertices = n;
  slice.declared_records = m;

  if (options.verify_checksum) {
    slice.facts.checksum_blocks = std::move(checksum_blocks);
    // Every part's blocks together make the checksum, compared with the header's on every part.
    slice.check_parts = [path, header = mapped.header, hashed](std::span<const SliceFacts> all) {
      std::uint64_t total = 0;
      for (const Hashed& a : hashed) total += block_count(a.size);
      std::vector<std::uint64_t> hashes(total);
      std::vector<bool> seen(total, false);
      for (const SliceFacts& facts : all)
        for (const auto& [index, hash] : facts.checksum_blocks) {
          if (index >= total || seen[index]) throw Error(fmt::format("{}: the parts' checksum blocks overlap", path));
          seen[index] = true;
          hashes[index] = hash;
        }
      if (std::find(seen.begin(), seen.end(), false) != seen.end())
        throw Error(fmt::format("{}: the parts' checksum blocks leave a gap", path));
      std::uint64_t h = header_hash(header), at = 0;
      for (const Hashed& a : hashed) {
        const std::uint64_t blocks = block_count(a.size);
        h = hash_combine(h, combine_blocks(a.size, a.seed, std::span(hashes).subspan(at, blocks)));
        at += blocks;
      }
      if (h != header.checksum) throw_checksum_mismatch(path, header.checksum, h);
    };
  }
  return slice;
}

}  // namespace courier::graph::io

namespace courier::graph {

CsrRows map_csr_rows(const CsrRows& read, vertex_t first, vertex_t last) {
  if (!read.file) throw Error("map_csr_rows: rows not read from a .csr file");
  const MappedFile& file = *read.file;
  io::Mapped mapped{read.file, {}, WeightType::none, {}};
  std::memcpy(&mapped.header, file.data(), sizeof mapped.header);  // read, and checked, by read's reader
  mapped.type = static_cast<WeightType>(mapped.header.weight_type);
  mapped.arrays = io::arrays_in(file.data(), mapped.header);
  const std::uint64_t n = mapped.header.num_vertices;
  if (first > last || last > n)
    throw Error(fmt::format("{}: rows {}..{} asked of a graph of {} vertices", file.path(), first, last, n));
  return io::rows_of(mapped, first, last);
}

}  // namespace courier::graph
