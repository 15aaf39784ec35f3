// Matrix Market coordinate files: "%%MatrixMarket matrix coordinate FIELD SYMMETRY", '%' comments,
// "rows cols nnz", then nnz 1-based "row col [value]" entries.
#include <algorithm>
#include <cctype>

#include "block_writer.hpp"
#include "formats.hpp"
#include "line_reader.hpp"
#include "numbers.hpp"

namespace courier::graph::io {

namespace {

enum class Field { pattern, integer, real };

struct Header {
  Field field = Field::pattern;
  bool symmetric = false;
};

std::string lowercase(std::string_view text) {
  std::string result(text);
  for (char& c : result) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return result;
}

Header parse_header(std::string_view line, const std::string& path) {
  const std::string_view kSupported =
      "Courier reads '%%MatrixMarket matrix coordinate pattern|integer|real general|symmetric'";
  Tokens tokens(line);
  std::string_view banner, object, format, field, symmetry;
  if (!tokens.next(banner) || lowercase(banner) != "%%matrixmarket")
    throw_input_error(path, 1, fmt::format("missing the '%%MatrixMarket' header line; {}", kSupported));
  if (!tokens.next(object) || !tokens.next(format) || !tokens.next(field) || !tokens.next(symmetry) ||
      !tokens.at_end())
    throw_input_error(path, 1, fmt::format("malformed header '{}'; {}", line, kSupported));
  Header header;
  const std::string f = lowercase(field), s = lowercase(symmetry);
  if (lowercase(object) != "matrix" || lowercase(format) != "coordinate")
    throw_input_error(path, 1, fmt::format("unsupported '{} {}' (only sparse 'matrix coordinate'); {}", object, format, kSupported));
  if (f == "pattern") header.field = Field::pattern;
  else if (f == "integer") header.field = Field::integer;
  else if (f == "real" || f == "double") header.field = Field::real;
  else throw_input_error(path, 1, fmt::format("unsupported field '{}'; {}", field, kSupported));
  if (s == "general") header.symmetric = false;
  else if (s == "symmetric") header.symmetric = true;
  else throw_input_error(path, 1, fmt::format("unsupported symmetry '{}'; {}", symmetry, kSupported));
  return header;
}

// The banner and the size line: what every part of the file needs before its entries.
struct Preamble {
  Header header;
  std::uint64_t rows = 0, cols = 0, declared = 0;
  std::uint64_t size_line = 0;    // also the number of lines before the entries
  std::size_t data_begin = 0;     // the byte after the size line
};

Preamble read_preamble(const MappedFile& file, const ReadOptions& options) {
  const std::string& path = file.path();
  LineReader lines(file.text());
  std::string_view line;
  if (!lines.next(line)) throw_input_error(path, 0, "empty file: expected a '%%MatrixMarket' header");
  Preamble pre;
  pre.header = parse_header(line, path);
  // The size line: the first line that is not a comment or blank.
  while (lines.next(line)) {
    Tokens tokens(line);
    std::string_view a, b, c;
    if (!tokens.next(a) || a[0] == '%') continue;
    pre.size_line = lines.line_number();
    if (!tokens.next(b) || !tokens.next(c) || !tokens.at_end())
      throw_input_error(path, pre.size_line, "expected the size line 'rows columns entries'");
    pre.rows = parse_or_throw<std::uint64_t>(a, "row count", path, pre.size_line);
    pre.cols = parse_or_throw<std::uint64_t>(b, "column count", path, pre.size_line);
    pre.declared = parse_or_throw<std::uint64_t>(c, "entry count", path, pre.size_line);
    if (options.check_id_range && std::max(pre.rows, pre.cols) > 0)
      check_id_range(path, std::max(pre.rows, pre.cols) - 1,
                     fmt::format("the size line's {} x {} matrix", pre.rows, pre.cols), [&] { return pre.size_line; });
    pre.data_begin = static_cast<std::size_t>(line.data() + line.size() - file.data());
    pre.data_begin = std::min(file.size(), pre.data_begin + 1);  // past the '\n'
    return pre;
  }
  throw_input_error(path, 0, "missing the size line 'rows columns entries'");
}

// The entries in text[begin, end) (whole lines), appended to `list`; `limit` entries at most.
// Returns how many entries there were.
template <class LinesBeforeFn>
std::uint64_t read_entries(const MappedFile& file, const Preamble& pre, std::size_t begin, std::size_t end,
                           LinesBeforeFn&& lines_before, std::uint64_t limit, EdgeList& list) {
  const std::string& path = file.path();
  const Header& header = pre.header;
  Progress progress("reading " + path, end - begin);
  LineReader lines(file.text().substr(begin, end - begin), &progress);
  std::vector<std::uint32_t> int_weights;
  std::vector<float> real_weights;
  // Reserve from the header only as far as the text could hold (a lying header must not OOM us).
  const std::uint64_t plausible = std::min<std::uint64_t>(limit, (end - begin) / 4 + 1) * (header.symmetric ? 2 : 1);
  list.edges.reserve(plausible);
  if (header.field == Field::integer) int_weights.reserve(plausible);
  if (header.field == Field::real) real_weights.reserve(plausible);

  std::uint64_t entries = 0;
  std::string_view line;
  while (lines.next(line)) {
    Tokens tokens(line);
    std::string_view i, j, value;
    if (!tokens.next(i) || i[0] == '%') continue;
    const std::uint64_t number = lines_before() + lines.line_number();
    if (++entries > limit)
      throw_input_error(path, number, fmt::format("more entries than the {} declared on line {}", limit, pre.size_line));
    if (!tokens.next(j)) throw_input_error(path, number, "expected 'row column' but found one number");
    const vertex_t src = parse_one_based_id(i, "row", pre.rows, path, number);
    const vertex_t dst = parse_one_based_id(j, "column", pre.cols, path, number);
    if (header.field != Field::pattern && !tokens.next(value))
      throw_input_error(path, number, "missing value: the header declares a weighted matrix");
    if (!tokens.at_end())
      throw_input_error(path, number, fmt::format("too many columns: expected 'row column{}'",
                                                  header.field == Field::pattern ? "" : " value"));
    const bool both = header.symmetric && src != dst;
    list.edges.push_back({src, dst});
    if (both) list.edges.push_back({dst, src});
    if (header.field == Field::integer) {
      const auto w = parse_or_throw<std::uint32_t>(value, "integer value", path, number);
      int_weights.insert(int_weights.end(), both ? 2 : 1, w);
    } else if (header.field == Field::real) {
      const float w = parse_real_or_throw(value, path, number);
      real_weights.insert(real_weights.end(), both ? 2 : 1, w);
    }
  }
  if (header.field == Field::integer) list.weights = std::move(int_weights);
  if (header.field == Field::real) list.weights = std::move(real_weights);
  return entries;
}

}  // namespace

EdgeList read_matrix_market(const MappedFile& file, const ReadOptions& options) {
  const Preamble pre = read_preamble(file, options);
  EdgeList list;
  list.num_vertices = std::max(pre.rows, pre.cols);
  const std::uint64_t entries =
      read_entries(file, pre, pre.data_begin, file.size(), [&] { return pre.size_line; }, pre.declared, list);
  if (entries < pre.declared)
    throw_input_error(file.path(), pre.size_line,
                      fmt::format("the size line declares {} entries but the file has {}", pre.declared, entries));
  return list;
}

EdgeSlice read_matrix_market_part(const MappedFile& file, const ReadOptions& options, std::uint64_t part,
                                  std::uint64_t parts) {
  const Preamble pre = read_preamble(file, options);
  const std::string_view text = file.text();
  const auto [first, last] = part_of_lines(text, pre.data_begin, part, parts);
  EdgeSlice slice;
  slice.edges.num_vertices = std::max(pre.rows, pre.cols);
  const LinesBefore lines_before(text, first);
  slice.facts.records = read_entries(file, pre, first, last, lines_before, pre.declared, slice.edges);
  slice.facts.vertices = slice.edges.num_vertices;
  slice.declared_vertices = slice.edges.num_vertices;
  slice.declared_records = pre.declared;
  slice.declared_line = pre.size_line;
  return slice;
}

void write_matrix_market(const std::string& path, const EdgeList& list) {
  AtomicFile file(path);
  const char* field = list.weight_type() == WeightType::u32   ? "integer"
                      : list.weight_type() == WeightType::f32 ? "real"
                                                              : "pattern";
  file.write(fmt::format("%%MatrixMarket matrix coordinate {} general\n% written by Courier\n{} {} {}\n", field,
                         list.num_vertices, list.num_vertices, list.edges.size()));
  std::visit(
      [&](const auto& weights) {
        using W = std::decay_t<decltype(weights)>;
        write_blocks(file, list.edges.size(), [&](std::uint64_t first, std::uint64_t last, fmt::memory_buffer& out) {
          for (std::uint64_t e = first; e < last; ++e) {
            append_int(out, list.edges[e].src + 1);
            out.push_back(' ');
            append_int(out, list.edges[e].dst + 1);
            if constexpr (std::is_same_v<W, std::vector<std::uint32_t>>) {
              out.push_back(' ');
              append_int(out, weights[e]);
            } else if constexpr (std::is_same_v<W, std::vector<float>>) {
              out.push_back(' ');
              append_real(out, weights[e]);
            }
            out.push_back('\n');
          }
        });
      },
      list.weights);
  file.commit();
}

}  // namespace courier::graph::io
