// METIS adjacency graphs (.graph): '%' comments, a header "n m [fmt [ncon]]", then one line per
// vertex listing its 1-based neighbours. fmt's digits say what each line carries: vertex size
// (hundreds), ncon vertex weights (tens), a weight after each neighbour (ones). m counts
// undirected edges, so the lines list 2m neighbours in all.
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

}  // namespace

EdgeList read_metis(const MappedFile& file) {
  const std::string& path = file.path();
  Progress progress("reading " + path, file.size());
  LineReader lines(file.text(), &progress);
  std::string_view line;
  std::uint64_t header_line = 0;
  Header header;
  while (!header_line && lines.next(line)) {
    Tokens tokens(line);
    std::string_view first;
    if (!tokens.next(first) || first[0] == '%') continue;
    header_line = lines.line_number();
    header = parse_header(line, path, header_line);
  }
  if (!header_line) throw_input_error(path, 0, "missing the header 'VERTICES EDGES [FMT [NCON]]'");

  EdgeList list;
  list.num_vertices = header.vertices;
  std::vector<std::uint32_t> weights;
  const std::uint64_t plausible = std::min<std::uint64_t>(2 * header.edges, file.size() / 2 + 1);
  list.edges.reserve(plausible);
  if (header.edge_weights) weights.reserve(plausible);

  vertex_t vertex = 0;  // the vertex whose line comes next
  while (lines.next(line)) {
    const std::uint64_t number = lines.line_number();
    Tokens tokens(line);
    std::string_view token;
    const bool blank = !tokens.next(token);  // a blank line is a vertex without neighbours
    if (!blank && token[0] == '%') continue;
    if (vertex == header.vertices) {
      if (blank) continue;  // blank lines after the last vertex
      throw_input_error(path, number, fmt::format("more vertex lines than the {} declared on line {}", header.vertices, header_line));
    }
    Tokens fields(line);
    for (std::uint64_t skip = (header.vertex_sizes ? 1 : 0) + header.vertex_weights; skip > 0; --skip)
      if (!fields.next(token)) throw_input_error(path, number, "missing vertex size or weight (the header's format says they come first)");
    while (fields.next(token)) {
      list.edges.push_back({vertex, parse_one_based_id(token, "neighbour", header.vertices, path, number)});
      if (header.edge_weights) {
        if (!fields.next(token)) throw_input_error(path, number, "missing weight after the last neighbour (the header's format says edges are weighted)");
        weights.push_back(parse_or_throw<std::uint32_t>(token, "edge weight", path, number));
      }
    }
    ++vertex;
  }
  if (vertex < header.vertices)
    throw_input_error(path, header_line, fmt::format("the header declares {} vertices but the file has {} vertex lines",
                                                     header.vertices, vertex));
  if (list.edges.size() != 2 * header.edges)
    throw_input_error(path, header_line,
                      fmt::format("the header declares {} edges but the lines list {} neighbours ({} edges: each "
                                  "undirected edge is listed from both ends)",
                                  header.edges, list.edges.size(), list.edges.size() / 2.0));
  if (header.edge_weights) list.weights = std::move(weights);
  return list;
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
