// DIMACS shortest-path graphs (.gr): 'c' comments, one "p sp n m" line, then m "a u v w" arcs with
// 1-based ids and non-negative integer weights.
#include "block_writer.hpp"
#include "formats.hpp"
#include "line_reader.hpp"
#include "numbers.hpp"

namespace courier::graph::io {

namespace {

// The problem line and what precedes it: what every part of the file needs before its arcs.
struct Preamble {
  vertex_t vertices = 0;
  std::uint64_t declared = 0;
  std::uint64_t problem_line = 0;  // also the number of lines before the arcs
  std::size_t data_begin = 0;      // the byte after the problem line
};

Preamble read_preamble(const MappedFile& file) {
  const std::string& path = file.path();
  LineReader lines(file.text());
  std::string_view line;
  while (lines.next(line)) {
    const std::uint64_t number = lines.line_number();
    Tokens tokens(line);
    std::string_view kind, a, b;
    if (!tokens.next(kind) || kind[0] == 'c') continue;
    if (kind == "a") throw_input_error(path, number, "arc before the problem line 'p sp VERTICES ARCS'");
    if (kind != "p")
      throw_input_error(path, number, fmt::format("unknown line type '{}': expected 'c', 'p' or 'a'", kind));
    std::string_view problem;
    if (!tokens.next(problem) || problem != "sp" || !tokens.next(a) || !tokens.next(b) || !tokens.at_end())
      throw_input_error(path, number, "expected the problem line 'p sp VERTICES ARCS'");
    Preamble pre;
    pre.problem_line = number;
    pre.vertices = parse_or_throw<vertex_t>(a, "vertex count", path, number);
    pre.declared = parse_or_throw<std::uint64_t>(b, "arc count", path, number);
    pre.data_begin = std::min(file.size(), static_cast<std::size_t>(line.data() + line.size() - file.data()) + 1);
    return pre;
  }
  throw_input_error(path, 0, "missing the problem line 'p sp VERTICES ARCS'");
}

// The arcs in text[begin, end) (whole lines), `limit` at most, appended to `list` and `weights`.
template <class LinesBeforeFn>
void read_arcs(const MappedFile& file, const Preamble& pre, std::size_t begin, std::size_t end,
               LinesBeforeFn&& lines_before, std::uint64_t limit, EdgeList& list, std::vector<std::uint32_t>& weights) {
  const std::string& path = file.path();
  Progress progress("reading " + path, end - begin);
  LineReader lines(file.text().substr(begin, end - begin), &progress);
  const std::uint64_t plausible = std::min<std::uint64_t>(limit, (end - begin) / 8 + 1);
  list.edges.reserve(plausible);
  weights.reserve(plausible);
  std::string_view line;
  while (lines.next(line)) {
    Tokens tokens(line);
    std::string_view kind, a, b, c;
    if (!tokens.next(kind) || kind[0] == 'c') continue;
    const std::uint64_t number = lines_before() + lines.line_number();
    if (kind == "p")
      throw_input_error(path, number, fmt::format("a second 'p' line (the first is line {})", pre.problem_line));
    if (kind != "a")
      throw_input_error(path, number, fmt::format("unknown line type '{}': expected 'c', 'p' or 'a'", kind));
    if (!tokens.next(a) || !tokens.next(b)) throw_input_error(path, number, "expected the arc 'a FROM TO WEIGHT'");
    if (!tokens.next(c)) throw_input_error(path, number, "missing weight: expected the arc 'a FROM TO WEIGHT'");
    if (!tokens.at_end()) throw_input_error(path, number, "too many columns: expected the arc 'a FROM TO WEIGHT'");
    if (list.edges.size() == limit)
      throw_input_error(path, number, fmt::format("more arcs than the {} declared on line {}", limit, pre.problem_line));
    const vertex_t from = parse_one_based_id(a, "arc source", pre.vertices, path, number);
    const vertex_t to = parse_one_based_id(b, "arc target", pre.vertices, path, number);
    list.edges.push_back({from, to});
    weights.push_back(parse_or_throw<std::uint32_t>(c, "weight", path, number));
  }
}

}  // namespace

EdgeList read_dimacs(const MappedFile& file) {
  const Preamble pre = read_preamble(file);
  EdgeList list;
  list.num_vertices = pre.vertices;
  std::vector<std::uint32_t> weights;
  read_arcs(file, pre, pre.data_begin, file.size(), [&] { return pre.problem_line; }, pre.declared, list, weights);
  if (list.edges.size() != pre.declared)
    throw_input_error(file.path(), pre.problem_line,
                      fmt::format("the problem line declares {} arcs but the file has {}", pre.declared, list.edges.size()));
  list.weights = std::move(weights);
  return list;
}

EdgeSlice read_dimacs_part(const MappedFile& file, std::uint64_t part, std::uint64_t parts) {
  const Preamble pre = read_preamble(file);
  const std::string_view text = file.text();
  const auto [first, last] = part_of_lines(text, pre.data_begin, part, parts);
  EdgeSlice slice;
  slice.edges.num_vertices = pre.vertices;
  std::vector<std::uint32_t> weights;
  read_arcs(file, pre, first, last, LinesBefore(text, first), pre.declared, slice.edges, weights);
  slice.edges.weights = std::move(weights);
  slice.facts.records = slice.edges.edges.size();
  slice.facts.vertices = pre.vertices;
  slice.declared_vertices = pre.vertices;
  slice.declared_records = pre.declared;
  slice.declared_line = pre.problem_line;
  return slice;
}

void write_dimacs(const std::string& path, const EdgeList& list) {
  if (list.weight_type() == WeightType::f32)
    throw InputError(fmt::format("{}: DIMACS .gr weights are integers and this graph has float weights; "
                                 "write another format (.wel, .mtx, .bel, .csr)", path));
  AtomicFile file(path);
  file.write(fmt::format("c written by Courier{}\np sp {} {}\n",
                         list.has_weights() ? "" : " (the graph had no weights: every arc has weight 1)",
                         list.num_vertices, list.edges.size()));
  const auto* weights = std::get_if<std::vector<std::uint32_t>>(&list.weights);
  write_blocks(file, list.edges.size(), [&](std::uint64_t first, std::uint64_t last, fmt::memory_buffer& out) {
    for (std::uint64_t e = first; e < last; ++e) {
      out.append(std::string_view("a "));
      append_int(out, list.edges[e].src + 1);
      out.push_back(' ');
      append_int(out, list.edges[e].dst + 1);
      out.push_back(' ');
      append_int(out, weights ? (*weights)[e] : 1u);
      out.push_back('\n');
    }
  });
  file.commit();
}

}  // namespace courier::graph::io
