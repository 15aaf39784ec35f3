// METIS adjacency graphs (.graph): '%' comments, a header "n m [fmt [ncon]]", then one line per
// vertex listing its 1-based neighbours. fmt's digits say what each line carries: vertex size
// (hundreds), ncon vertex weights (tens), a weight after each neighbour (ones). m counts
// undirected edges, so the lines list 2m neighbours in all. A line's vertex is the number of vertex
// lines before it, so a part of the file counts its own first (metis_vertex_lines) and the parts
// before it tell it where it starts.
#include <algorithm>
#include <tuple>

#include "block_writer.hpp"
#include "formats.hpp"
#include "line_reader.hpp"
#include "numbers.hpp"

namespace courier::graph::io {

namespace {

struct Header {
  vertex_t vertices = 0;
  std::uint64_t edges = 0;
  bool vertex_sizes = false;
  std::uint64_t vertex_weights = 0;  // per vertex (ncon when fmt has the tens digit)
  bool edge_weights = false;
};

Header parse_header(std::string_view line, const std::string& path, std::uint64_t number) {
  Tokens tokens(line);
  std::string_view n, m, format, ncon;
  tokens.next(n);
  if (!tokens.next(m)) throw_input_error(path, number, "expected the header 'VERTICES EDGES [FMT [NCON]]'");
  Header header;
  header.vertices = parse_or_throw<vertex_t>(n, "vertex count", path, number);
  header.edges = parse_or_throw<std::uint64_t>(m, "edge count", path, number);
  if (tokens.next(format)) {
    if (format.size() > 3 || format.find_first_not_of("01") != std::string_view::npos)
      throw_input_error(path, number, fmt::format("format '{}' is not one of 0, 1, 10, 11, 100, 101, 110, 111", format));
    const std::string digits = std::string(3 - format.size(), '0') + std::string(format);
    header.vertex_sizes = digits[0] == '1';
    header.vertex_weights = digits[1] == '1' ? 1 : 0;
    header.edge_weights = digits[2] == '1';
    if (tokens.next(ncon)) {
      header.vertex_weights = parse_or_throw<std::uint64_t>(ncon, "constraint count", path, number);
      if (digits[1] != '1') throw_input_error(path, number, "a constraint count is given but the format has no vertex weights");
    }
  }
  if (!tokens.at_end()) throw_input_error(path, number, "too many fields: expected 'VERTICES EDGES [FMT [NCON]]'");
  return header;
}

// Everything up to the header line: every part reads it (only comments come before it).
struct Prelude {
  Header header;
  std::uint64_t header_line = 0;
  std::size_t data_begin = 0;  // the byte after the header line
};

Prelude read_prelude(const MappedFile& file) {
  const std::string& path = file.path();
  const std::string_view text = file.text();
  LineReader lines(text);
  std::string_view line;
  Prelude pre;
  while (lines.next(line)) {
    Tokens tokens(line);
    std::string_view first;
    if (!tokens.next(first) || first[0] == '%') continue;
    pre.header_line = lines.line_number();
    pre.header = parse_header(line, path, pre.header_line);
    pre.data_begin = static_cast<std::size_t>(line.data() + line.size() - text.data());
    if (pre.data_begin < text.size()) ++pre.data_begin;  // its '\n'
    return pre;
  }
  throw_input_error(path, 0, "missing the header 'VERTICES EDGES [FMT [NCON]]'");
}

// A vertex line is any line that is not a comment: a blank line is a vertex without neighbours.
bool is_comment(std::string_view line) {
  Tokens tokens(line);
  std::string_view first;
  return tokens.next(first) && first[0] == '%';
}

// The vertex lines in text[first, last), the first of them vertex `vertex`: their neighbours as
// edges (weights alongside). Line numbers in messages count from the start of the file.
// Returns the vertex after the last vertex line read.
std::uint64_t read_vertex_lines(const MappedFile& file, const Prelude& pre, std::size_t first, std::size_t last,
                                std::uint64_t vertex, const LinesBefore& lines_before, EdgeList& list,
                                std::vector<std::uint32_t>& weights, Progress* progress) {
  const std::string& path = file.path();
  const Header& header = pre.header;
  LineReader lines(file.text().substr(first, last - first), progress);
  std::string_view line;
  while (lines.next(line)) {
    Tokens tokens(line);
    std::string_view token;
    const bool blank = !tokens.next(token);
    if (!blank && token[0] == '%') continue;
    if (vertex >= header.vertices) {
      if (blank) continue;  // blank lines after the last vertex
      throw_input_error(path, lines_before() + lines.line_number(),
                        fmt::format("more vertex lines than the {} declared on line {}", header.vertices, pre.header_line));
    }
    const auto number = [&] { return lines_before() + lines.line_number(); };
    Tokens fields(line);
    for (std::uint64_t skip = (header.vertex_sizes ? 1 : 0) + header.vertex_weights; skip > 0; --skip)
      if (!fields.next(token)) throw_input_error(path, number(), "missing vertex size or weight (the header's format says they come first)");
    while (fields.next(token)) {
      list.edges.push_back({vertex, parse_one_based_id(token, "neighbour", header.vertices, path, number())});
      if (header.edge_weights) {
        if (!fields.next(token)) throw_input_error(path, number(), "missing weight after the last neighbour (the header's format says edges are weighted)");
        weights.push_back(parse_or_throw<std::uint32_t>(token, "edge weight", path, number()));
      }
    }
    ++vertex;
  }
  return vertex;
}

// The checks only the whole file decides: as many vertex lines as the header declares (blank
// lines after the last vertex are not vertex lines, but they only come after it) and every
// undirected edge listed from both ends.
void check_counts(const std::string& path, const Prelude& pre, std::uint64_t vertex_lines, std::uint64_t neighbours) {
  if (vertex_lines < pre.header.vertices)
    throw_input_error(path, pre.header_line, fmt::format("the header declares {} vertices but the file has {} vertex lines",
                                                         pre.header.vertices, vertex_lines));
  if (neighbours != 2 * pre.header.edges)
    throw_input_error(path, pre.header_line,
                      fmt::format("the header declares {} edges but the lines list {} neighbours ({} edges: each "
                                  "undirected edge is listed from both ends)",
                                  pre.header.edges, neighbours, static_cast<double>(neighbours) / 2.0));
}

std::uint64_t count_vertex_lines(std::string_view text) {
  LineReader lines(text);
  std::string_view line;
  std::uint64_t count = 0;
  while (lines.next(line)) count += is_comment(line) ? 0 : 1;
  return count;
}

}  // namespace

EdgeList read_metis(const MappedFile& file) {
  Progress progress("reading " + file.path(), file.size());
  const Prelude pre = read_prelude(file);
  EdgeList list;
  list.num_vertices = pre.header.vertices;
  std::vector<std::uint32_t> weights;
  const std::uint64_t plausible = std::min<std::uint64_t>(2 * pre.header.edges, file.size() / 2 + 1);
  list.edges.reserve(plausible);
  if (pre.header.edge_weights) weights.reserve(plausible);
  const std::string_view text = file.text();
  const std::uint64_t vertex_lines = read_vertex_lines(file, pre, pre.data_begin, text.size(), 0,
                                                      LinesBefore(text, pre.data_begin), list, weights, &progress);
  check_counts(file.path(), pre, vertex_lines, list.edges.size());
  if (pre.header.edge_weights) list.weights = std::move(weights);
  return list;
}

std::uint64_t metis_vertex_lines(const MappedFile& file, std::uint64_t part, std::uint64_t parts) {
  const Prelude pre = read_prelude(file);
  const std::string_view text = file.text();
  const auto [first, last] = part_of_lines(text, pre.data_begin, part, parts);
  return count_vertex_lines(text.substr(first, last - first));
}

EdgeSlice read_metis_part(const MappedFile& file, std::uint64_t part, std::uint64_t parts, std::uint64_t first_vertex) {
  const Prelude pre = read_prelude(file);
  const std::string_view text = file.text();
  const auto [first, last] = part_of_lines(text, pre.data_begin, part, parts);
  EdgeSlice slice;
  slice.edges.num_vertices = pre.header.vertices;
  std::vector<std::uint32_t> weights;
  const std::uint64_t end_vertex =
      read_vertex_lines(file, pre, first, last, first_vertex, LinesBefore(text, first), slice.edges, weights, nullptr);
  if (pre.header.edge_weights) slice.edges.weights = std::move(weights);
  slice.facts.records = slice.edges.edges.size();
  slice.facts.vertices = pre.header.vertices;
  slice.facts.vertex_lines = end_vertex - first_vertex;
  slice.declared_vertices = pre.header.vertices;
  slice.declared_line = pre.header_line;
  slice.check_parts = [path = file.path(), pre](std::span<const SliceFacts> all) {
    std::uint64_t vertex_lines = 0, neighbours = 0;
    for (const SliceFacts& facts : all) {
      vertex_lines += facts.vertex_lines;
      neighbours += facts.records;
    }
    check_counts(path, pre, vertex_lines, neighbours);
  };
  return slice;
}

namespace {
// Is every edge matched by its reverse with the same weight? Compared as sorted multisets.
bool is_symmetric(const EdgeList& list, const std::vector<std::uint32_t>* weights) {
  using Key = std::tuple<vertex_t, vertex_t, std::uint32_t>;
  std::vector<Key> forward(list.edges.size()), backward(list.edges.size());
  for (std::size_t i = 0; i < list.edges.size(); ++i) {
    const std::uint32_t w = weights ? (*weights)[i] : 0;
    forward[i] = {list.edges[i].src, list.edges[i].dst, w};
    backward[i] = {list.edges[i].dst, list.edges[i].src, w};
  }
  std::sort(forward.begin(), forward.end());
  std::sort(backward.begin(), backward.end());
  return forward == backward;
}
}  // namespace

void write_metis(const std::string& path, const EdgeList& list) {
  if (list.weight_type() == WeightType::f32)
    throw InputError(fmt::format("{}: METIS edge weights are integers and this graph has float weights; "
                                 "write another format (.wel, .mtx, .bel, .csr)", path));
  for (const Edge& e : list.edges)
    if (e.src == e.dst)
      throw InputError(fmt::format("{}: METIS graphs cannot have self-loops and this one has {} -> {}; remove self-loops "
                                   "first", path, e.src, e.dst));
  const auto* weights = std::get_if<std::vector<std::uint32_t>>(&list.weights);
  if (!is_symmetric(list, weights))
    throw InputError(fmt::format("{}: METIS lists each undirected edge from both ends, but this graph is directed "
                                 "(an edge has no reverse{}); read it with --symmetrize",
                                 path, weights ? " with the same weight" : ""));
  const Csr csr = build_csr(list);
  AtomicFile file(path);
  file.write(fmt::format("% written by Courier\n{} {}{}\n", list.num_vertices, list.edges.size() / 2, weights ? " 001" : ""));
  const std::uint32_t* w = weights ? csr.weights_as<std::uint32_t>().data() : nullptr;
  write_blocks(file, csr.num_vertices(), [&](std::uint64_t first, std::uint64_t last, fmt::memory_buffer& out) {
    for (vertex_t v = first; v < last; ++v) {
      for (edge_t e = csr.offsets()[v]; e < csr.offsets()[v + 1]; ++e) {
        if (e != csr.offsets()[v]) out.push_back(' ');
        append_int(out, csr.targets()[e] + 1);
        if (w) {
          out.push_back(' ');
          append_int(out, w[e]);
        }
      }
      out.push_back('\n');
    }
  }, 1u << 16);
  file.commit();
}

}  // namespace courier::graph::io
