// DIMACS shortest-path graphs (.gr): 'c' comments, one "p sp n m" line, then m "a u v w" arcs with
// 1-based ids and non-negative integer weights.
#include "block_writer.hpp"
#include "formats.hpp"
#include "line_reader.hpp"
#include "numbers.hpp"

namespace courier::graph::io {

EdgeList read_dimacs(const MappedFile& file) {
  const std::string& path = file.path();
  Progress progress("reading " + path, file.size());
  LineReader lines(file.text(), &progress);
  EdgeList list;
  std::vector<std::uint32_t> weights;
  std::uint64_t declared = 0, problem_line = 0;
  std::string_view line;
  while (lines.next(line)) {
    const std::uint64_t number = lines.line_number();
    Tokens tokens(line);
    std::string_view kind, a, b, c;
    if (!tokens.next(kind) || kind[0] == 'c') continue;
    if (kind == "p") {
      if (problem_line)
        throw_input_error(path, number, fmt::format("a second 'p' line (the first is line {})", problem_line));
      std::string_view problem;
      if (!tokens.next(problem) || problem != "sp" || !tokens.next(a) || !tokens.next(b) || !tokens.at_end())
        throw_input_error(path, number, "expected the problem line 'p sp VERTICES ARCS'");
      problem_line = number;
      list.num_vertices = parse_or_throw<vertex_t>(a, "vertex count", path, number);
      declared = parse_or_throw<std::uint64_t>(b, "arc count", path, number);
      const std::uint64_t plausible = std::min<std::uint64_t>(declared, file.size() / 8 + 1);
      list.edges.reserve(plausible);
      weights.reserve(plausible);
    } else if (kind == "a") {
      if (!problem_line) throw_input_error(path, number, "arc before the problem line 'p sp VERTICES ARCS'");
      if (!tokens.next(a) || !tokens.next(b)) throw_input_error(path, number, "expected the arc 'a FROM TO WEIGHT'");
      if (!tokens.next(c)) throw_input_error(path, number, "missing weight: expected the arc 'a FROM TO WEIGHT'");
      if (!tokens.at_end()) throw_input_error(path, number, "too many columns: expected the arc 'a FROM TO WEIGHT'");
      if (list.edges.size() == declared)
        throw_input_error(path, number, fmt::format("more arcs than the {} declared on line {}", declared, problem_line));
      const vertex_t from = parse_one_based_id(a, "arc source", list.num_vertices, path, number);
      const vertex_t to = parse_one_based_id(b, "arc target", list.num_vertices, path, number);
      list.edges.push_back({from, to});
      weights.push_back(parse_or_throw<std::uint32_t>(c, "weight", path, number));
    } else {
      throw_input_error(path, number, fmt::format("unknown line type '{}': expected 'c', 'p' or 'a'", kind));
    }
  }
  if (!problem_line) throw_input_error(path, 0, "missing the problem line 'p sp VERTICES ARCS'");
  if (list.edges.size() != declared)
    throw_input_error(path, problem_line,
                      fmt::format("the problem line declares {} arcs but the file has {}", declared, list.edges.size()));
  list.weights = std::move(weights);
  return list;
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
