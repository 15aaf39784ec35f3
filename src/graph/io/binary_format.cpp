// Binary edge lists: records of two little-endian ids (4 or 8 bytes each), each optionally
// followed by a 4-byte weight (uint32 or float).
#include <algorithm>
#include <bit>
#include <cstring>

#include "courier/core/atomic_file.hpp"
#include "courier/core/progress.hpp"
#include "formats.hpp"
#include "numbers.hpp"

namespace courier::graph::io {

static_assert(std::endian::native == std::endian::little, "binary formats are read by memcpy: little-endian hosts only");

namespace {

constexpr const char* kFlags = "set the layout explicitly (--binary-id-bytes 4|8, --binary-weight none|uint32|float)";

std::size_t weight_bytes(WeightType type) { return type == WeightType::none ? 0 : 4; }

template <class Id>
Id load(const char* p) {
  Id value;
  std::memcpy(&value, p, sizeof value);
  return value;
}

// With both widths possible: 8-byte ids unless one of them needs more than 32 bits (a 4-byte file
// read as 8-byte ids has its odd ids in the high halves, which are almost never all zero).
// Only records [first, last) when a part of the file is asked about.
bool all_ids_fit_32_bits_as_8_byte(const MappedFile& file, std::size_t record, std::size_t first = 0,
                                   std::size_t last = SIZE_MAX) {
  const std::size_t end = std::min(file.size(), last == SIZE_MAX ? file.size() : last * record);
  for (std::size_t at = first * record; at + record <= end; at += record)
    if ((load<std::uint64_t>(file.data() + at) | load<std::uint64_t>(file.data() + at + 8)) >> 32) return false;
  return true;
}

// With both widths possible and a part asked about, only that part's records are looked at: the
// parts then agree on the smallest answer (binary_width_vote).
int id_bytes_for(const MappedFile& file, const ReadOptions& options, std::uint64_t part = 0, std::uint64_t parts = 1) {
  const std::size_t w = weight_bytes(options.binary_weight);
  if (options.binary_id_bytes == 4 || options.binary_id_bytes == 8) return options.binary_id_bytes;
  if (options.binary_id_bytes != 0)
    throw InputError(fmt::format("binary id width {} is not supported: use 4 or 8 (or 0 to guess)", options.binary_id_bytes));
  const bool fits4 = file.size() % (8 + w) == 0;
  const bool fits8 = file.size() % (16 + w) == 0;
  if (fits4 && fits8) {
    const std::size_t records = file.size() / (16 + w);
    return all_ids_fit_32_bits_as_8_byte(file, 16 + w, records * part / parts, records * (part + 1) / parts) ? 8 : 4;
  }
  if (fits4) return 4;
  if (fits8) return 8;
  throw_input_error(file.path(), 0,
                    fmt::format("size {} bytes is neither a multiple of {} (4-byte ids) nor of {} (8-byte ids{}): "
                                "the file is truncated or has another layout; {}",
                                file.size(), 8 + w, 16 + w, w ? ", with 4-byte weights" : "", kFlags));
}

// Records [begin, end) of the file.
template <class Id, class Weight>
void decode(const MappedFile& file, std::size_t record, std::size_t begin, std::size_t end, EdgeList& list,
            std::vector<Weight>* weights) {
  const std::size_t count = end - begin;
  list.edges.resize(count);
  if (weights) weights->resize(count);
  Edge* edges = list.edges.data();
  Weight* weight = weights ? weights->data() : nullptr;
  Progress progress("reading " + file.path(), file.size());
  vertex_t max_id = 0;
  constexpr std::size_t kStep = 1 << 20;  // records between progress reports
  for (std::size_t first = 0; first < count; first += kStep) {
    const std::size_t last = std::min(count, first + kStep);
    const char* p = file.data() + (begin + first) * record;
    for (std::size_t i = first; i < last; ++i, p += record) {
      const vertex_t src = load<Id>(p), dst = load<Id>(p + sizeof(Id));
      edges[i] = {src, dst};
      max_id = std::max(max_id, std::max(src, dst));
      if (weight) weight[i] = load<Weight>(p + 2 * sizeof(Id));
    }
    progress.add((last - first) * record);
  }
  if (max_id == kNoVertex)
    throw_input_error(file.path(), 0, fmt::format("an id is {}, too large to be a vertex; is the layout right? {}", max_id, kFlags));
  list.num_vertices = count ? max_id + 1 : 0;
}

template <class Id>
void decode_with_weights(const MappedFile& file, std::size_t record, std::size_t begin, std::size_t end,
                         WeightType type, EdgeList& list) {
  if (type == WeightType::u32) {
    std::vector<std::uint32_t> weights;
    decode<Id>(file, record, begin, end, list, &weights);
    list.weights = std::move(weights);
  } else if (type == WeightType::f32) {
    std::vector<float> weights;
    decode<Id>(file, record, begin, end, list, &weights);
    list.weights = std::move(weights);
  } else {
    decode<Id, std::uint32_t>(file, record, begin, end, list, nullptr);
  }
}

// The record size for `id_bytes`, after checking that the file holds whole records.
std::size_t record_size(const MappedFile& file, int id_bytes, const ReadOptions& options) {
  const std::size_t record = 2 * static_cast<std::size_t>(id_bytes) + weight_bytes(options.binary_weight);
  if (file.size() % record != 0)
    throw_input_error(file.path(), 0,
                      fmt::format("truncated: size {} bytes is not a multiple of the {}-byte record "
                                  "({}-byte ids{}); the last record at byte {} is incomplete; {}",
                                  file.size(), record, id_bytes, options.binary_weight == WeightType::none ? "" : " and a 4-byte weight",
                                  file.size() / record * record, kFlags));
  return record;
}

EdgeList decode_records(const MappedFile& file, int id_bytes, std::size_t record, std::size_t begin, std::size_t end,
                        WeightType type) {
  EdgeList list;
  if (id_bytes == 4)
    decode_with_weights<std::uint32_t>(file, record, begin, end, type, list);
  else
    decode_with_weights<std::uint64_t>(file, record, begin, end, type, list);
  return list;
}

}  // namespace

EdgeList read_binary(const MappedFile& file, const ReadOptions& options) {
  const int id_bytes = id_bytes_for(file, options);
  const std::size_t record = record_size(file, id_bytes, options);
  return decode_records(file, id_bytes, record, 0, file.size() / record, options.binary_weight);
}

int binary_width_vote(const MappedFile& file, const ReadOptions& options, std::uint64_t part, std::uint64_t parts) {
  return id_bytes_for(file, options, part, parts);
}

EdgeSlice read_binary_part(const MappedFile& file, const ReadOptions& options, std::uint64_t part, std::uint64_t parts) {
  if (options.binary_id_bytes != 4 && options.binary_id_bytes != 8)
    throw Error("read_binary_part: the id width must be agreed first (binary_width_vote)");
  const std::size_t record = record_size(file, options.binary_id_bytes, options);
  const std::size_t records = file.size() / record;
  EdgeSlice slice;
  slice.edges = decode_records(file, options.binary_id_bytes, record, records * part / parts,
                               records * (part + 1) / parts, options.binary_weight);
  slice.facts.records = slice.edges.edges.size();
  slice.facts.vertices = slice.edges.num_vertices;
  return slice;
}

namespace {
template <class Id>
void encode(const std::string& path, AtomicFile& file, const EdgeList& list) {
  constexpr std::size_t kBlock = 1 << 16;  // records per write
  const std::size_t w = list.has_weights() ? 4 : 0;
  const std::size_t record = 2 * sizeof(Id) + w;
  std::vector<char> buffer(kBlock * record);
  const auto* u32 = std::get_if<std::vector<std::uint32_t>>(&list.weights);
  const auto* f32 = std::get_if<std::vector<float>>(&list.weights);
  Progress progress("writing " + path, list.edges.size() * record);
  for (std::size_t first = 0; first < list.edges.size(); first += kBlock) {
    const std::size_t last = std::min(list.edges.size(), first + kBlock);
    char* p = buffer.data();
    for (std::size_t i = first; i < last; ++i, p += record) {
      const Edge& e = list.edges[i];
      if (sizeof(Id) == 4 && (e.src | e.dst) >> 32)
        throw Error(fmt::format("{}: edge {} -> {} does not fit 4-byte ids; write 8-byte ids", path, e.src, e.dst));
      const Id ids[2] = {static_cast<Id>(e.src), static_cast<Id>(e.dst)};
      std::memcpy(p, ids, sizeof ids);
      if (u32) std::memcpy(p + sizeof ids, &(*u32)[i], 4);
      if (f32) std::memcpy(p + sizeof ids, &(*f32)[i], 4);
    }
    file.write(buffer.data(), (last - first) * record);
    progress.add((last - first) * record);
  }
}
}  // namespace

void write_binary(const std::string& path, const EdgeList& list, const WriteOptions& options) {
  if (options.binary_id_bytes != 4 && options.binary_id_bytes != 8)
    throw InputError(fmt::format("binary id width {} is not supported: use 4 or 8", options.binary_id_bytes));
  AtomicFile file(path);
  if (options.binary_id_bytes == 4)
    encode<std::uint32_t>(path, file, list);
  else
    encode<std::uint64_t>(path, file, list);
  file.commit();
}

}  // namespace courier::graph::io
