// The public entry points: pick the format from the extension, check options and inputs, apply
// the options every format shares (--symmetrize), and call the format's reader or writer.
#include "courier/graph/io.hpp"

#include <fmt/format.h>
#include <sys/stat.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdio>
#include <utility>

#include "courier/core/error.hpp"
#include "formats.hpp"

namespace courier::graph {

namespace {

constexpr std::array<std::pair<std::string_view, Format>, 11> kExtensions{{
    {"el", Format::text}, {"txt", Format::text}, {"wel", Format::text}, {"edges", Format::text},
    {"mtx", Format::matrix_market}, {"bel", Format::binary}, {"bin", Format::binary},
    {"gr", Format::dimacs}, {"graph", Format::metis}, {"csr", Format::csr}, {"tsv", Format::text},
}};

void check(const ReadOptions& options) {
  if (options.weight_column && *options.weight_column != 0 && *options.weight_column < 3)
    throw InputError(
        fmt::format("weight column {} is not supported: the weight is column 3 or later (columns 1 and 2 "
                    "are the ids), or none",
                    *options.weight_column));
  if (options.base != 0 && options.base != 1)
    throw InputError(fmt::format("base {} is not supported: ids start at 0 or 1", options.base));
  if (options.binary_id_bytes != 0 && options.binary_id_bytes != 4 && options.binary_id_bytes != 8)
    throw InputError(fmt::format("binary id width {} is not supported: use 4 or 8 (or 0 to guess)", options.binary_id_bytes));
}

void check(const std::string& path, const WriteOptions& options) {
  if (options.base != 0 && options.base != 1)
    throw InputError(fmt::format("{}: base {} is not supported: ids start at 0 or 1", path, options.base));
}

// Writers trust their input: catch inconsistent edge lists here, before a file is created.
void check(const std::string& path, const EdgeList& list) {
  std::visit(
      [&](const auto& w) {
        if constexpr (!std::is_same_v<std::decay_t<decltype(w)>, std::monostate>)
          if (w.size() != list.edges.size())
            throw Error(fmt::format("{}: cannot write {} weights for {} edges", path, w.size(), list.edges.size()));
      },
      list.weights);
  for (const Edge& e : list.edges)
    if (e.src >= list.num_vertices || e.dst >= list.num_vertices)
      throw Error(fmt::format("{}: cannot write edge {} -> {}: the graph has {} vertices", path, e.src, e.dst,
                              list.num_vertices));
}

// Appends the reverse of every edge that is not a loop, weights alongside.
EdgeList with_reverse_edges(EdgeList list) {
  const std::size_t count = list.edges.size();
  for (std::size_t i = 0; i < count; ++i)
    if (list.edges[i].src != list.edges[i].dst) list.edges.push_back({list.edges[i].dst, list.edges[i].src});
  std::visit(
      [&](auto& w) {
        if constexpr (!std::is_same_v<std::decay_t<decltype(w)>, std::monostate>) {
          w.reserve(list.edges.size());
          for (std::size_t i = 0; i < count; ++i)
            if (list.edges[i].src != list.edges[i].dst) w.push_back(w[i]);
        }
      },
      list.weights);
  return list;
}

EdgeList read_parsed(const std::string& path, Format format, const ReadOptions& options) {
  const auto file = MappedFile::open(path);
  switch (format) {
    case Format::text: return io::read_text(*file, options);
    case Format::matrix_market:
      return io::read_matrix_market(*file, options);
    case Format::binary: return io::read_binary(*file, options);
    case Format::dimacs: return io::read_dimacs(*file);
    case Format::metis: return io::read_metis(*file);
    case Format::galois:
      return io::read_galois(*file, options);
    case Format::webgraph:
      return io::read_webgraph(*file);
    case Format::csr: break;
  }
  return to_edge_list(io::read_csr_file(path, options));
}

bool exists(const std::string& path) {
  struct stat info;
  return ::stat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode);
}

}  // namespace

Format format_from_path(std::string_view path) {
  const std::size_t slash = path.find_last_of('/');
  const std::string_view name = slash == std::string_view::npos ? path : path.substr(slash + 1);
  const std::size_t dot = name.find_last_of('.');
  std::string extension(dot == std::string_view::npos ? std::string_view() : name.substr(dot + 1));
  std::transform(extension.begin(), extension.end(), extension.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  for (const auto& [known, format] : kExtensions)
    if (extension == known) return format;
  throw InputError(
      fmt::format("{}: unknown graph format{}: use .el .txt .wel .edges .tsv (text edge list), .mtx "
                  "(Matrix Market), .bel .bin (binary edge list), .gr (DIMACS or Galois binary), .graph "
                  "(METIS, or WebGraph with its .properties) or .csr",
                  path, extension.empty() ? " (no extension)" : fmt::format(" '.{}'", extension)));
}

Format format_of_file(const std::string& path) {
  const Format format = format_from_path(path);
  if (format == Format::dimacs) {
    // DIMACS is text: its first byte is never 1 or 2 followed by seven zero bytes.
    char first[8];
    std::FILE* file = std::fopen(path.c_str(), "rb");
    if (file == nullptr) return format;
    const std::size_t got = std::fread(first, 1, sizeof first, file);
    std::fclose(file);
    return io::is_galois(std::string_view(first, got)) ? Format::galois : format;
  }
  if (format == Format::metis) {
    const std::string base = path.substr(0, path.size() - std::string_view(".graph").size());
    if (exists(base + ".properties")) return Format::webgraph;
  }
  return format;
}

std::optional<Format> format_named(std::string_view name) {
  for (const Format format : {Format::text, Format::matrix_market, Format::binary, Format::dimacs, Format::metis,
                              Format::csr, Format::galois, Format::webgraph})
    if (name == to_string(format)) return format;
  return std::nullopt;
}

const char* to_string(Format format) {
  switch (format) {
    case Format::text: return "text";
    case Format::matrix_market: return "matrix-market";
    case Format::binary: return "binary";
    case Format::dimacs: return "dimacs";
    case Format::metis: return "metis";
    case Format::csr: return "csr";
    case Format::galois:
      return "galois";
    case Format::webgraph:
      return "webgraph";
  }
  return "?";
}

const char* describe(Format format) {
  switch (format) {
    case Format::text:
      return "text edge list";
    case Format::matrix_market:
      return "Matrix Market";
    case Format::binary:
      return "binary edge list";
    case Format::dimacs:
      return "DIMACS shortest path text";
    case Format::metis:
      return "METIS adjacency text";
    case Format::csr:
      return "Courier CSR";
    case Format::galois:
      return "Galois binary, told from DIMACS by its first 8 bytes";
    case Format::webgraph:
      return "WebGraph BVGraph, told from METIS by the .properties beside it";
  }
  return "?";
}

EdgeList read_edge_list(const std::string& path, const ReadOptions& options) {
  check(options);
  EdgeList list = read_parsed(path, format_of_file(path), options);
  if (options.symmetrize) list = with_reverse_edges(std::move(list));
  return list;
}

Csr read_csr(const std::string& path, const ReadOptions& options) {
  check(options);
  const Format format = format_from_path(path);
  if (format == Format::csr && !options.symmetrize) return io::read_csr_file(path, options);
  return build_csr(read_edge_list(path, options));
}

void write_edge_list(const std::string& path, const EdgeList& edges, const WriteOptions& options) {
  const Format format = options.format.value_or(format_from_path(path));
  check(path, options);
  check(path, edges);
  switch (format) {
    case Format::text: return io::write_text(path, edges, options);
    case Format::matrix_market: return io::write_matrix_market(path, edges);
    case Format::binary: return io::write_binary(path, edges, options);
    case Format::dimacs: return io::write_dimacs(path, edges);
    case Format::metis: return io::write_metis(path, edges);
    case Format::csr: {
      Csr csr = build_csr(edges);
      csr.set_symmetric(options.symmetric);
      return io::write_csr_file(path, csr);
    }
    case Format::galois:
      return io::write_galois(path, edges);
    case Format::webgraph:
      break;
  }
  throw InputError(
      fmt::format("{}: Courier reads WebGraph files but does not write them: write another format "
                  "(.csr, .gr, .el)",
                  path));
}

void write_csr(const std::string& path, const Csr& csr, const WriteOptions& options) {
  const Format format = options.format.value_or(format_from_path(path));
  check(path, options);
  if (format == Format::csr) {
    Csr marked = csr;  // borrows the same arrays
    marked.set_symmetric(csr.symmetric() || options.symmetric);
    return io::write_csr_file(path, marked);
  }
  write_edge_list(path, to_edge_list(csr), options);
}

}  // namespace courier::graph
