#include "courier/graph/slice.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <type_traits>
#include <variant>

#include "courier/core/error.hpp"
#include "courier/core/mapped_file.hpp"
#include "io/formats.hpp"

namespace courier::graph {

namespace {

void check_part(std::uint64_t part, std::uint64_t parts) {
  if (parts == 0 || part >= parts) throw Error(fmt::format("part {} of {} does not exist", part, parts));
}

EdgeSlice generated_part(const std::string& spec, const GeneratorOptions& generator, std::uint64_t part,
                         std::uint64_t parts) {
  const edge_t m = generated_edge_count(generator);
  EdgeSlice slice;
  slice.edges = generate_range(generator, m * part / parts, m * (part + 1) / parts);
  slice.facts.records = slice.edges.edges.size();
  slice.facts.vertices = slice.edges.num_vertices;
  slice.declared_vertices = slice.edges.num_vertices;
  slice.source = spec;
  return slice;
}

// Edges [m*part/parts, m*(part+1)/parts) of an in-memory graph, in its CSR order, as a generator's.
EdgeSlice memory_part(const std::string& name, const Csr& csr, std::uint64_t part, std::uint64_t parts) {
  const edge_t m = csr.num_edges(), begin = m * part / parts, end = m * (part + 1) / parts;
  const std::span<const edge_t> offsets = csr.offsets();
  EdgeSlice slice;
  EdgeList& edges = slice.edges;
  edges.num_vertices = csr.num_vertices();
  edges.edges.reserve(end - begin);
  if (begin < end) {
    // The row holding edge `begin`: the last row starting at or before it.
    vertex_t row = static_cast<vertex_t>(std::upper_bound(offsets.begin(), offsets.end(), begin) - offsets.begin()) - 1;
    for (edge_t k = begin; k < end; ++k) {
      while (offsets[row + 1] <= k) ++row;
      edges.edges.push_back({row, csr.targets()[k]});
    }
  }
  std::visit(
      [&](const auto& w) {
        if constexpr (!std::is_same_v<std::decay_t<decltype(w)>, std::monostate>)
          edges.weights = std::vector(w.begin() + begin, w.begin() + end);
      },
      csr.weights());
  slice.facts.records = edges.edges.size();
  slice.facts.vertices = edges.num_vertices;
  slice.declared_vertices = edges.num_vertices;
  slice.source = name;
  return slice;
}

template <class T>
void put(std::string& out, const T& value) {
  out.append(reinterpret_cast<const char*>(&value), sizeof value);
}

template <class T>
T take(std::string_view& in) {
  if (in.size() < sizeof(T)) throw Error("SliceFacts: truncated");
  T value;
  std::memcpy(&value, in.data(), sizeof value);
  in.remove_prefix(sizeof value);
  return value;
}

}  // namespace

std::string SliceFacts::serialize() const {
  std::string out;
  put(out, records);
  put(out, vertices);
  put(out, columns);
  put(out, columns_byte);
  put(out, static_cast<std::uint8_t>(saw_real));
  put(out, vertex_lines);
  put(out, static_cast<std::uint64_t>(checksum_blocks.size()));
  for (const auto& [block, hash] : checksum_blocks) {
    put(out, block);
    put(out, hash);
  }
  put(out, static_cast<std::uint64_t>(deferred_error.size()));
  out += deferred_error;
  return out;
}

SliceFacts SliceFacts::deserialize(std::string_view in) {
  SliceFacts facts;
  facts.records = take<std::uint64_t>(in);
  facts.vertices = take<vertex_t>(in);
  facts.columns = take<std::uint8_t>(in);
  facts.columns_byte = take<std::uint64_t>(in);
  facts.saw_real = take<std::uint8_t>(in) != 0;
  facts.vertex_lines = take<std::uint64_t>(in);
  const auto blocks = take<std::uint64_t>(in);
  if (blocks > in.size() / 16) throw Error("SliceFacts: wrong block count");
  facts.checksum_blocks.resize(blocks);
  for (auto& [block, hash] : facts.checksum_blocks) {
    block = take<std::uint64_t>(in);
    hash = take<std::uint64_t>(in);
  }
  const auto length = take<std::uint64_t>(in);
  if (in.size() != length) throw Error("SliceFacts: wrong length");
  facts.deferred_error = std::string(in);
  return facts;
}

EdgeSlice read_edge_slice(const std::string& graph, const LoadOptions& options, std::uint64_t part, std::uint64_t parts,
                          std::optional<std::uint64_t> first_vertex) {
  check_part(part, parts);
  if (options.memory) return memory_part(graph, *options.memory, part, parts);
  GeneratorOptions generator;
  generator.seed = options.seed;
  generator.weights = options.weights;
  generator.threads = options.threads;
  if (parse_generator_spec(graph, generator)) return generated_part(graph, generator, part, parts);

  const Format format = format_of_file(graph);
  ReadOptions read = options.read;
  read.symmetrize = false;
  if (read.base != 0 && read.base != 1)
    throw InputError(fmt::format("base {} is not supported: ids start at 0 or 1", read.base));
  if (read.weight_column && *read.weight_column != 0 && *read.weight_column < 3)
    throw InputError(fmt::format("weight column {} is not supported: use 3 or later, or none", *read.weight_column));
  EdgeSlice slice;
  if (format == Format::csr) {
    slice = io::read_csr_part(graph, read, part, parts);
  } else {
    const auto file = MappedFile::open(graph);
    switch (format) {
      case Format::text:
        slice = io::read_text_range(*file, read, file->size() * part / parts, file->size() * (part + 1) / parts);
        break;
      case Format::matrix_market:
        slice = io::read_matrix_market_part(*file, read, part, parts);
        break;
      case Format::binary: slice = io::read_binary_part(*file, read, part, parts); break;
      case Format::dimacs: slice = io::read_dimacs_part(*file, part, parts); break;
      case Format::metis:
        if (!first_vertex && part > 0)
          throw Error(fmt::format("{}: part {} of a METIS file needs its first vertex (metis_vertex_lines)", graph, part));
        slice = io::read_metis_part(*file, part, parts, first_vertex.value_or(0));
        break;
      case Format::galois:
        slice = io::read_galois_part(*file, read, part, parts);
        break;
      case Format::webgraph:
        slice = io::read_webgraph_part(*file, part, parts);
        break;
      case Format::csr: break;
    }
  }
  slice.source = graph;
  return slice;
}

std::optional<std::uint64_t> metis_vertex_lines(const std::string& graph, const LoadOptions& options,
                                                std::uint64_t part, std::uint64_t parts) {
  check_part(part, parts);
  if (options.memory || is_generator_spec(graph) || format_of_file(graph) != Format::metis) return std::nullopt;
  return io::metis_vertex_lines(*MappedFile::open(graph), part, parts);
}

int binary_width_vote(const std::string& graph, const LoadOptions& options, std::uint64_t part, std::uint64_t parts) {
  check_part(part, parts);
  if (options.memory || is_generator_spec(graph) || format_from_path(graph) != Format::binary) return 0;
  return io::binary_width_vote(*MappedFile::open(graph), options.read, part, parts);
}

void finish_slice(EdgeSlice& slice, std::span<const SliceFacts> all) {
  std::uint64_t records = 0;
  vertex_t vertices = 0;
  bool any_real = false;
  const SliceFacts* columns = nullptr;  // the first part with a data line
  const std::string* deferred = nullptr;
  for (const SliceFacts& facts : all) {
    records += facts.records;
    vertices = std::max(vertices, facts.vertices);
    any_real = any_real || facts.saw_real;
    if (!deferred && !facts.deferred_error.empty()) deferred = &facts.deferred_error;
    if (facts.columns == 0) continue;
    if (!columns) {
      columns = &facts;
    } else if (facts.columns != columns->columns) {
      throw InputError(fmt::format(
          "{}: the line at byte {} has {} but the line at byte {} has {}: every line needs the same columns "
          "('source target' or 'source target weight')",
          slice.source, facts.columns_byte, facts.columns == 3 ? "a third column (weight)" : "no weight",
          columns->columns_byte, columns->columns == 3 ? "one" : "none"));
    }
  }
  // Text weights: reals if any part has them, else uint32 (a too large integer is then an error).
  if (columns && columns->columns == 3) {
    if (!any_real && deferred) throw InputError(*deferred);
    if (any_real) {
      std::vector<float> reals;
      if (const auto* ints = std::get_if<std::vector<std::uint32_t>>(&slice.edges.weights))
        reals.assign(ints->begin(), ints->end());
      else if (auto* own = std::get_if<std::vector<float>>(&slice.edges.weights))
        reals = std::move(*own);
      slice.edges.weights = std::move(reals);
    } else if (!slice.edges.has_weights()) {
      slice.edges.weights = std::vector<std::uint32_t>();  // a part without lines
    }
  }
  if (slice.declared_records && records != *slice.declared_records)
    throw_input_error(slice.source, slice.declared_line,
                      fmt::format("the header declares {} {} but the file has {}{}", *slice.declared_records,
                                  columns ? "edges" : "entries", records,
                                  records < *slice.declared_records ? ": is it truncated?" : ""));
  if (slice.declared_vertices) {
    if (vertices > *slice.declared_vertices)
      throw_input_error(slice.source, slice.declared_line,
                        fmt::format("the header declares {} vertices but vertex id {} appears",
                                    *slice.declared_vertices, vertices - 1));
    slice.edges.num_vertices = *slice.declared_vertices;
  } else {
    slice.edges.num_vertices = vertices;
  }
  if (slice.check_parts) slice.check_parts(all);
}

}  // namespace courier::graph
