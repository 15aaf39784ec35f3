// Partitioned .csr files: the layout is in include/courier/graph/partitioned_csr.hpp.
#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <memory>
#include <variant>

#include "block_hash.hpp"
#include "courier/core/atomic_file.hpp"
#include "courier/core/error.hpp"
#include "courier/core/mapped_file.hpp"
#include "courier/graph/partitioned_csr.hpp"

namespace courier::graph {

static_assert(std::endian::native == std::endian::little, ".csr files are read as is: little-endian hosts only");

namespace {

constexpr char kMagic[8] = {'C', 'O', 'U', 'R', 'C', 'S', 'R', '\n'};
constexpr std::uint32_t kVersion = 2;

struct Header {
  char magic[8];
  std::uint32_t version;
  std::uint32_t weight_type;
  std::uint64_t num_vertices;
  std::uint64_t num_edges;
  std::uint64_t checksum;
  std::uint32_t parts;
  char policy[4];
  std::uint64_t largest_out_degree;
  std::uint64_t reserved;
};
static_assert(sizeof(Header) == 64);

struct Entry {
  std::uint64_t offset, length, mirrors, edges, requested, checksum, offset_bytes, in_checksum;
};
static_assert(sizeof(Entry) == 64);

std::uint64_t padded8(std::uint64_t bytes) { return (bytes + 7) / 8 * 8; }

std::uint64_t table_begin(std::uint64_t parts) { return sizeof(Header) + (parts + 1) * 8; }
std::uint64_t table_end(std::uint64_t parts) { return table_begin(parts) + parts * sizeof(Entry); }

// The bytes of each of a part's arrays, in the layout's order (unpadded).
struct Sizes {
  std::uint64_t bytes[9];
  std::uint64_t total() const {
    std::uint64_t sum = 0;
    for (std::uint64_t b : bytes) sum += padded8(b);
    return sum;
  }
};
Sizes sizes_of(std::uint64_t parts, std::uint64_t proxies, const Entry& e, WeightType type) {
  const std::uint64_t weights = type == WeightType::none ? 0 : e.edges * 4;
  return {{e.mirrors * 8, (parts + 1) * 8, e.requested * 4, (proxies + 1) * 8, e.edges * 4, weights, (proxies + 1) * 8,
           e.edges * 4, weights}};
}

// A part's checksum: each array hashed in blocks (block_hash.hpp), the arrays combined in order.
class PartHash {
 public:
  explicit PartHash(std::uint64_t part) : h_(hash_combine(0x70637372, part)) {}
  void add(const void* data, std::uint64_t size) {
    std::vector<std::uint64_t> hashes(io::block_count(size));
    for (std::uint64_t b = 0; b < hashes.size(); ++b) hashes[b] = io::hash_block(data, size, 0, b);
    add_blocks(size, hashes);
  }
  void add_blocks(std::uint64_t size, std::span<const std::uint64_t> hashes) {
    h_ = hash_combine(h_, io::combine_blocks(size, seed_++, hashes));
  }
  std::uint64_t value() const { return h_; }

 private:
  std::uint64_t h_;
  std::uint64_t seed_ = 10;
};

// The file mapped, its header, bounds and table checked.
struct Opened {
  std::shared_ptr<const MappedFile> file;
  Header header;
  PartitionedCsrHeader facts;
  std::vector<Entry> table;
};

Opened open_checked(const std::string& path) {
  Opened o;
  o.file = MappedFile::open(path);
  const MappedFile& file = *o.file;
  const auto fail = [&](std::uint64_t byte, const std::string& what) {
    throw InputError(
        fmt::format("{}: byte {}: {}: the partitioned .csr is corrupted; write it again with courier "
                    "convert --partition",
                    path, byte, what));
  };
  if (file.size() < sizeof(Header))
    fail(0, fmt::format("truncated: {} bytes, less than the {}-byte header", file.size(), sizeof(Header)));
  std::memcpy(&o.header, file.data(), sizeof(Header));
  const Header& h = o.header;
  if (std::memcmp(h.magic, kMagic, sizeof kMagic) != 0 || h.version != kVersion)
    fail(0, "not a partitioned .csr file (magic and version 2)");
  if (h.weight_type > static_cast<std::uint32_t>(WeightType::f32))
    fail(12, fmt::format("unknown weight type {}", h.weight_type));
  if (h.parts == 0 || table_end(h.parts) > file.size())
    fail(40, fmt::format("{} parts need a {}-byte table, and the file has {} bytes", h.parts, table_end(h.parts),
                         file.size()));
  Header zeroed = h;
  zeroed.checksum = 0;
  std::uint64_t sum = hash_bytes(&zeroed, sizeof zeroed, 1);
  sum = hash_combine(sum, hash_bytes(file.data() + sizeof(Header), table_end(h.parts) - sizeof(Header), 2));
  if (sum != h.checksum)
    throw InputError(
        fmt::format("{}: checksum mismatch in bytes 0..{} (header {:016x}, data {:016x}): the header, "
                    "bounds or part table is corrupted; write the file again with courier convert "
                    "--partition",
                    path, table_end(h.parts), h.checksum, sum));

  PartitionedCsrHeader& f = o.facts;
  f.parts = h.parts;
  f.policy = std::string(h.policy, strnlen(h.policy, sizeof h.policy));
  f.num_vertices = h.num_vertices;
  f.num_edges = h.num_edges;
  f.weight_type = static_cast<WeightType>(h.weight_type);
  f.largest_out_degree = h.largest_out_degree;
  f.bounds.resize(h.parts + 1);
  std::memcpy(f.bounds.data(), file.data() + sizeof(Header), f.bounds.size() * 8);
  for (std::uint32_t p = 0; p <= h.parts; ++p) {
    const vertex_t b = f.bounds[p];
    if ((p == 0 && b != 0) || (p == h.parts && b != h.num_vertices) || (p > 0 && b < f.bounds[p - 1]))
      fail(sizeof(Header) + p * 8,
           fmt::format("bound {} of part {} does not run from 0 up to the {} vertices", b, p, h.num_vertices));
  }
  o.table.resize(h.parts);
  std::memcpy(o.table.data(), file.data() + table_begin(h.parts), o.table.size() * sizeof(Entry));
  std::uint64_t at = table_end(h.parts), edges = 0;
  constexpr std::uint64_t kLimit = std::uint64_t{1} << 56;  // keeps the size arithmetic from overflowing
  for (std::uint32_t p = 0; p < h.parts; ++p) {
    const Entry& e = o.table[p];
    const std::uint64_t byte = table_begin(h.parts) + p * sizeof(Entry);
    const std::uint64_t proxies = f.bounds[p + 1] - f.bounds[p] + e.mirrors;
    if (e.mirrors >= kLimit || e.edges >= kLimit || e.requested >= kLimit || proxies >= (std::uint64_t{1} << 32))
      fail(byte, fmt::format("part {}'s counts are out of range", p));
    if (e.offset_bytes != 8)
      fail(byte + 48, fmt::format("part {} has {}-byte offsets (this build reads 8)", p, e.offset_bytes));
    if (e.offset != at || e.length != sizes_of(h.parts, proxies, e, f.weight_type).total() ||
        e.offset + e.length > file.size())
      fail(byte, fmt::format("part {} at bytes {}..{} does not follow the previous part at {} or does not hold its "
                             "arrays",
                             p, e.offset, e.offset + e.length, at));
    at += e.length;
    edges += e.edges;
  }
  if (at != file.size()) fail(at, fmt::format("{} bytes after the last part", file.size() - at));
  if (edges != h.num_edges) fail(24, fmt::format("the parts hold {} edges, the header says {}", edges, h.num_edges));
  return o;
}

// Copies `count` elements at byte `at` of the file into `out`, a block at a time, hashing each
// block and releasing its pages once copied.
template <class Vector>
void copy_out(const MappedFile& file, std::uint64_t at, std::uint64_t count, Vector& out, PartHash& hash) {
  using T = typename Vector::value_type;
  out.resize(count);
  const std::uint64_t size = count * sizeof(T);
  std::vector<std::uint64_t> hashes(io::block_count(size));
  const char* from = file.data() + at;
  for (std::uint64_t b = 0; b < hashes.size(); ++b) {
    const std::uint64_t length = std::min(io::kBlock, size - b * io::kBlock);
    std::memcpy(reinterpret_cast<char*>(out.data()) + b * io::kBlock, from + b * io::kBlock, length);
    hashes[b] = io::hash_block(out.data(), size, 0, b);
    file.release(from + b * io::kBlock, length);
  }
  hash.add_blocks(size, hashes);
}

}  // namespace

bool is_partitioned_csr(const std::string& path) {
  try {
    const auto file = MappedFile::open(path);
    if (file->size() < 12) return false;
    std::uint32_t version = 0;
    std::memcpy(&version, file->data() + 8, 4);
    return std::memcmp(file->data(), kMagic, sizeof kMagic) == 0 && version == kVersion;
  } catch (const InputError&) {
    return false;  // reading it says why
  }
}

PartitionedCsrHeader read_partitioned_header(const std::string& path) { return open_checked(path).facts; }

CsrPart read_partitioned_part(const std::string& path, std::uint32_t part, bool verify_checksum, bool in_edges) {
  const Opened o = open_checked(path);
  if (part >= o.facts.parts)
    throw Error(fmt::format("{}: part {} asked of a file of {} parts", path, part, o.facts.parts));
  const Entry& e = o.table[part];
  const MappedFile& file = *o.file;
  CsrPart out;
  out.first_master = o.facts.bounds[part];
  out.masters = o.facts.bounds[part + 1] - out.first_master;
  const std::uint64_t proxies = out.masters + e.mirrors;
  const Sizes sizes = sizes_of(o.facts.parts, proxies, e, o.facts.weight_type);
  std::uint64_t starts[9];
  for (std::uint64_t a = 0, at = e.offset; a < 9; at += padded8(sizes.bytes[a++])) starts[a] = at;
  const auto weights = [&](int array, EdgeWeights& into, PartHash& hash) {
    if (o.facts.weight_type == WeightType::u32) {
      std::vector<std::uint32_t> w;
      copy_out(file, starts[array], e.edges, w, hash);
      into = std::move(w);
    } else if (o.facts.weight_type == WeightType::f32) {
      std::vector<float> w;
      copy_out(file, starts[array], e.edges, w, hash);
      into = std::move(w);
    }
  };
  const auto check_sum = [&](const PartHash& hash, std::uint64_t expected, const char* what) {
    if (verify_checksum && hash.value() != expected)
      throw InputError(fmt::format(
          "{}: checksum mismatch in part {} of {}{}, bytes {}..{} (table {:016x}, data {:016x}): the part is "
          "corrupted; write the file again with courier convert --partition",
          path, part, o.facts.parts, what, e.offset, e.offset + e.length, expected, hash.value()));
  };
  PartHash hash(part);
  copy_out(file, starts[0], e.mirrors, out.mirror_ids, hash);
  copy_out(file, starts[1], o.facts.parts + std::uint64_t{1}, out.request_bounds, hash);
  copy_out(file, starts[2], e.requested, out.requested, hash);
  copy_out(file, starts[3], proxies + 1, out.offsets, hash);
  copy_out(file, starts[4], e.edges, out.targets, hash);
  weights(5, out.weights, hash);
  check_sum(hash, e.checksum, "");
  if (in_edges) {
    PartHash in_hash(part);
    copy_out(file, starts[6], proxies + 1, out.in_offsets, in_hash);
    copy_out(file, starts[7], e.edges, out.in_sources, in_hash);
    weights(8, out.in_weights, in_hash);
    check_sum(in_hash, e.in_checksum, " (its in-edges)");
  }

  // Ids in range and offsets monotone even without the checksum, so a bad part cannot send reads astray.
  const auto fail = [&](int array, std::uint64_t index, std::uint64_t width, const std::string& what) {
    throw InputError(
        fmt::format("{}: byte {}: part {}: {}: the file is corrupted; write it again with courier "
                    "convert --partition",
                    path, starts[array] + index * width, part, what));
  };
  const vertex_t n = o.facts.num_vertices, last = out.first_master + out.masters;
  for (std::uint64_t i = 0; i < out.mirror_ids.size(); ++i) {
    const vertex_t g = out.mirror_ids[i];
    if (g >= n || (g >= out.first_master && g < last) || (i > 0 && g <= out.mirror_ids[i - 1]))
      fail(0, i, 8,
           fmt::format("mirror {} is vertex {}: not ascending, mastered here, or beyond the {} vertices", i, g, n));
  }
  for (std::uint64_t q = 0; q < out.request_bounds.size(); ++q) {
    const std::uint64_t b = out.request_bounds[q];
    if ((q == 0 && b != 0) || (q + 1 == out.request_bounds.size() && b != e.requested) ||
        (q > 0 && b < out.request_bounds[q - 1]))
      fail(1, q, 8, fmt::format("request bound {} does not run from 0 up to the {} requested", b, e.requested));
  }
  for (std::uint64_t i = 0; i < out.requested.size(); ++i)
    if (out.requested[i] >= out.masters)
      fail(2, i, 4, fmt::format("requested {} is not one of the {} masters", out.requested[i], out.masters));
  const auto check_rows = [&](int array, const std::vector<edge_t>& offsets, std::span<const std::uint32_t> ids) {
    for (std::uint64_t v = 0; v <= proxies; ++v) {
      const edge_t k = offsets[v];
      if ((v == 0 && k != 0) || (v == proxies && k != e.edges) || (v > 0 && k < offsets[v - 1]))
        fail(array, v, 8, fmt::format("offset {} does not run from 0 up to the {} edges", k, e.edges));
    }
    std::uint32_t largest = 0;
    for (std::uint32_t t : ids) largest = std::max(largest, t);
    if (!ids.empty() && largest >= proxies) {
      const auto k = static_cast<std::uint64_t>(
          std::find_if(ids.begin(), ids.end(), [&](std::uint32_t t) { return t >= proxies; }) - ids.begin());
      fail(array + 1, k, 4, fmt::format("edge {} points to local id {}, beyond the {} proxies", k, ids[k], proxies));
    }
  };
  check_rows(3, out.offsets, out.targets);
  if (in_edges) check_rows(6, out.in_offsets, out.in_sources);
  return out;
}

EdgeList read_partitioned_edges(const std::string& path, std::uint32_t first, std::uint32_t last,
                                bool verify_checksum) {
  const PartitionedCsrHeader header = read_partitioned_header(path);
  EdgeList list;
  list.num_vertices = header.num_vertices;
  if (header.weight_type == WeightType::u32) list.weights = std::vector<std::uint32_t>();
  if (header.weight_type == WeightType::f32) list.weights = std::vector<float>();
  for (std::uint32_t p = first; p < last && p < header.parts; ++p) {
    CsrPart part = read_partitioned_part(path, p, verify_checksum, false);
    const auto global = [&](std::uint64_t v) {
      return v < part.masters ? part.first_master + v : part.mirror_ids[v - part.masters];
    };
    for (std::uint64_t v = 0; v + 1 < part.offsets.size(); ++v)
      for (edge_t k = part.offsets[v]; k < part.offsets[v + 1]; ++k)
        list.edges.push_back({global(v), global(part.targets[k])});
    std::visit(
        [&](auto& all) {
          if constexpr (!std::is_same_v<std::decay_t<decltype(all)>, std::monostate>) {
            const auto& mine = std::get<std::decay_t<decltype(all)>>(part.weights);
            all.insert(all.end(), mine.begin(), mine.end());
          }
        },
        list.weights);
  }
  return list;
}

void write_partitioned_csr(const std::string& path, const PartitionedCsrHeader& facts,
                           std::span<const CsrPartView> parts) {
  if (parts.size() != facts.parts || facts.bounds.size() != facts.parts + std::size_t{1} || facts.policy.size() > 4)
    throw Error("write_partitioned_csr: the parts do not match the header");
  Header header{};
  std::memcpy(header.magic, kMagic, sizeof kMagic);
  header.version = kVersion;
  header.weight_type = static_cast<std::uint32_t>(facts.weight_type);
  header.num_vertices = facts.num_vertices;
  header.num_edges = facts.num_edges;
  header.parts = facts.parts;
  std::memcpy(header.policy, facts.policy.data(), facts.policy.size());
  header.largest_out_degree = facts.largest_out_degree;

  // Each part's arrays as bytes, in the layout's order: the out-edges' side, then the in-edges'.
  using Weights = std::variant<std::monostate, std::span<const std::uint32_t>, std::span<const float>>;
  const auto add_weights = [](std::vector<std::span<const std::byte>>& out, const Weights& weights) {
    std::visit(
        [&](const auto& w) {
          if constexpr (!std::is_same_v<std::decay_t<decltype(w)>, std::monostate>) out.push_back(std::as_bytes(w));
        },
        weights);
  };
  const auto out_arrays = [&](const CsrPartView& v) {
    std::vector<std::span<const std::byte>> out{std::as_bytes(v.mirror_ids), std::as_bytes(v.request_bounds),
                                                std::as_bytes(v.requested), std::as_bytes(v.offsets),
                                                std::as_bytes(v.targets)};
    add_weights(out, v.weights);
    return out;
  };
  const auto in_arrays = [&](const CsrPartView& v) {
    std::vector<std::span<const std::byte>> out{std::as_bytes(v.in_offsets), std::as_bytes(v.in_sources)};
    add_weights(out, v.in_weights);
    return out;
  };
  std::vector<Entry> table(facts.parts);
  std::uint64_t at = table_end(facts.parts);
  for (std::uint32_t p = 0; p < facts.parts; ++p) {
    const CsrPartView& v = parts[p];
    if (v.request_bounds.size() != facts.parts + std::size_t{1} || v.offsets.empty() ||
        v.offsets.back() != v.targets.size() || v.in_offsets.size() != v.offsets.size() ||
        v.in_sources.size() != v.targets.size() || v.weights.index() != v.in_weights.index())
      throw Error(fmt::format("write_partitioned_csr: part {}'s arrays do not match", p));
    Entry& e = table[p];
    e.offset = at;
    e.mirrors = v.mirror_ids.size();
    e.edges = v.targets.size();
    e.requested = v.requested.size();
    e.offset_bytes = 8;
    PartHash hash(p), in_hash(p);
    for (const auto& bytes : out_arrays(v)) {
      e.length += padded8(bytes.size());
      hash.add(bytes.data(), bytes.size());
    }
    for (const auto& bytes : in_arrays(v)) {
      e.length += padded8(bytes.size());
      in_hash.add(bytes.data(), bytes.size());
    }
    e.checksum = hash.value();
    e.in_checksum = in_hash.value();
    at += e.length;
  }
  std::vector<char> head(table_end(facts.parts));
  std::memcpy(head.data() + sizeof(Header), facts.bounds.data(), facts.bounds.size() * 8);
  std::memcpy(head.data() + table_begin(facts.parts), table.data(), table.size() * sizeof(Entry));
  header.checksum = hash_combine(hash_bytes(&header, sizeof header, 1),
                                 hash_bytes(head.data() + sizeof(Header), head.size() - sizeof(Header), 2));
  std::memcpy(head.data(), &header, sizeof header);

  AtomicFile file(path);
  file.write(head.data(), head.size());
  const char padding[8] = {};
  const auto write = [&](const std::vector<std::span<const std::byte>>& arrays) {
    for (const auto& bytes : arrays) {
      if (!bytes.empty()) file.write(bytes.data(), bytes.size());
      file.write(padding, padded8(bytes.size()) - bytes.size());
    }
  };
  for (const CsrPartView& v : parts) {
    write(out_arrays(v));
    write(in_arrays(v));
  }
  file.commit();
}

}  // namespace courier::graph
