// SNAP-style text edge lists: "source target [weight]" per line, parsed in parallel over chunks
// that start at line boundaries, then joined in file order. Files with more columns (SNAP's temporal
// "source target timestamp ...", rated or signed networks) name their weight column, or none, with
// ReadOptions::weight_column.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <optional>
#include <thread>
#include <vector>

#include "block_writer.hpp"
#include "formats.hpp"
#include "line_reader.hpp"
#include "numbers.hpp"

namespace courier::graph::io {

namespace {

// An error found by a worker; its line is counted from the start of the worker's chunk.
struct ChunkFailure {
  std::uint64_t line;
  std::string what;
};

enum class Columns : std::uint8_t { unknown, two, three };

struct Chunk {
  std::string_view text;

  std::vector<Edge> edges;
  std::vector<std::uint32_t> int_weights;
  std::vector<float> real_weights;  // used once a weight is not a uint32 (real_mode)
  bool real_mode = false;
  bool saw_real = false;            // a weight written with '.' or an exponent
  std::optional<ChunkFailure> bad_integer;  // an integer weight that is not a uint32
  Columns columns = Columns::unknown;
  std::uint64_t first_data_line = 0;
  std::uint64_t lines = 0;
  vertex_t max_id = 0;
  std::uint64_t max_id_line = 0;  // where max_id first appears, counted from the chunk's start
  std::optional<ChunkFailure> failure;
};

const char* kColumns = "expected 'source target' or 'source target weight'";

// How lines are read: ids from `base`, and which column is the weight (ReadOptions::weight_column).
struct Syntax {
  vertex_t base = 0;
  std::optional<int> weight_column;
};

class ChunkParser {
 public:
  ChunkParser(Chunk& chunk, const Syntax& syntax)
      : chunk_(chunk), base_(syntax.base), weight_column_(syntax.weight_column) {}

  void parse_line(std::string_view line, std::uint64_t number) {
    Tokens tokens(line);
    std::string_view source, target, weight, extra;
    if (!tokens.next(source) || source[0] == '#' || source[0] == '%') return;  // blank or comment
    if (!tokens.next(target)) fail(number, fmt::format("{}, found one column", kColumns));
    bool weighted = false;
    if (!weight_column_) {
      weighted = tokens.next(weight);
      if (weighted && tokens.next(extra))
        fail(number, fmt::format("{}, found more columns ('{}'); --weight-column picks the weight among them "
                                 "(or none)",
                                 kColumns, extra));
    } else if (*weight_column_ >= 3) {
      // Columns after the second are skipped up to the weight's; those after it are ignored.
      int column = 2;
      while (column < *weight_column_ && tokens.next(weight)) ++column;
      if (column < *weight_column_)
        fail(number, fmt::format("expected the weight in column {} (--weight-column), found {} columns",
                                 *weight_column_, column));
      weighted = true;
    }
    check_columns(weighted, number);

    const vertex_t s = parse_id(source, "source id", number);
    const vertex_t t = parse_id(target, "target id", number);
    chunk_.edges.push_back({s, t});
    if (const vertex_t larger = std::max(s, t); larger > chunk_.max_id || chunk_.max_id_line == 0) {
      chunk_.max_id = std::max(larger, chunk_.max_id);
      chunk_.max_id_line = number;
    }
    if (weighted) add_weight(weight, number);
  }

  [[noreturn]] static void fail(std::uint64_t line, std::string what) { throw ChunkFailure{line, std::move(what)}; }

 private:
  void check_columns(bool weighted, std::uint64_t number) {
    const Columns columns = weighted ? Columns::three : Columns::two;
    if (chunk_.columns == Columns::unknown) {
      chunk_.columns = columns;
      chunk_.first_data_line = number;
    } else if (chunk_.columns != columns) {
      fail(number, weighted ? "unexpected third column (weight): earlier lines have no weight"
                            : "missing weight: earlier lines have a third column (weight)");
    }
  }

  vertex_t parse_id(std::string_view token, std::string_view what, std::uint64_t number) {
    vertex_t id;
    const ParseStatus status = parse_unsigned(token, id);
    if (status != ParseStatus::ok) fail(number, bad_number(what, token, status));
    if (id == kNoVertex) fail(number, bad_number(what, token, ParseStatus::out_of_range));
    if (id < base_)
      fail(number, fmt::format("{} {} is below the smallest id {} (read 0-based files with base 0)", what, id, base_));
    return id - base_;
  }

  void add_weight(std::string_view token, std::uint64_t number) {
    if (looks_integral(token)) {
      std::uint32_t value;
      const ParseStatus status = parse_unsigned(token, value);
      if (status == ParseStatus::ok) {
        if (chunk_.real_mode)
          chunk_.real_weights.push_back(static_cast<float>(value));
        else
          chunk_.int_weights.push_back(value);
        return;
      }
      // Fine if the file turns out to have real weights, an error otherwise: remember it.
      if (!chunk_.bad_integer)
        chunk_.bad_integer = ChunkFailure{
            number, fmt::format("{} (integer weights are uint32; write real weights with a '.')",
                                bad_number("weight", token, status))};
    }
    float value;
    const ParseStatus status = parse_floating(token, value);
    if (status != ParseStatus::ok) fail(number, bad_number("weight", token, status));
    if (!std::isfinite(value)) fail(number, infinite_weight(token));
    if (!looks_integral(token)) chunk_.saw_real = true;
    switch_to_real();
    chunk_.real_weights.push_back(value);
  }

  void switch_to_real() {
    if (chunk_.real_mode) return;
    chunk_.real_mode = true;
    chunk_.real_weights.assign(chunk_.int_weights.begin(), chunk_.int_weights.end());
    chunk_.int_weights = {};
  }

  Chunk& chunk_;
  vertex_t base_;
  std::optional<int> weight_column_;
};

void parse_chunk(Chunk& chunk, const Syntax& syntax, Progress& progress) {
  LineReader lines(chunk.text, &progress);
  ChunkParser parser(chunk, syntax);
  std::string_view line;
  try {
    while (lines.next(line)) parser.parse_line(line, lines.line_number());
  } catch (ChunkFailure& failure) {
    chunk.failure = std::move(failure);
  } catch (std::bad_alloc&) {
    chunk.failure = ChunkFailure{lines.line_number(), "out of memory"};
  }
  chunk.lines = lines.line_number();
}

// Splits the text into about `parts` chunks, each starting at a line.
std::vector<Chunk> split(std::string_view text, unsigned parts) {
  std::vector<Chunk> chunks;
  std::size_t start = 0;
  for (unsigned k = 1; k <= parts && start < text.size(); ++k) {
    std::size_t end = k == parts ? text.size() : std::max(start, text.size() / parts * k);
    if (end < text.size()) {
      const std::size_t newline = text.find('\n', std::max<std::size_t>(end, 1) - 1);
      end = newline == std::string_view::npos ? text.size() : newline + 1;
    }
    Chunk chunk;
    chunk.text = text.substr(start, end - start);
    chunks.push_back(std::move(chunk));
    start = end;
  }
  if (chunks.empty()) chunks.emplace_back();
  return chunks;
}

// All cores, but no chunk below 8 MiB (not worth a thread); an explicit count is obeyed down to
// tiny chunks, so tests can exercise the joining of chunks on small files.
unsigned choose_threads(std::size_t bytes, unsigned requested) {
  if (requested) return static_cast<unsigned>(std::min<std::size_t>(requested, bytes / 64 + 1));
  const std::size_t by_size = bytes / (8u << 20) + 1;
  return static_cast<unsigned>(std::min<std::size_t>(std::max(1u, std::thread::hardware_concurrency()), by_size));
}

// The first problem in file order (a chunk's failure or its disagreement with earlier chunks about
// the weight column), with its line counted from the start of the file.
// `lines_before` counts the lines before the first chunk; it is called only to report a problem.
template <class LinesBefore>
void throw_first_problem(const std::string& path, const std::vector<Chunk>& chunks, LinesBefore&& lines_before) {
  std::uint64_t line_offset = 0;
  const auto at = [&](std::uint64_t line) { return lines_before() + line; };
  Columns columns = Columns::unknown;
  std::uint64_t columns_line = 0;
  for (const Chunk& chunk : chunks) {
    const bool disagrees = chunk.columns != Columns::unknown && columns != Columns::unknown && chunk.columns != columns;
    if (chunk.failure && (!disagrees || chunk.failure->line < chunk.first_data_line))
      throw_input_error(path, at(line_offset + chunk.failure->line), chunk.failure->what);
    if (disagrees)
      throw_input_error(path, at(line_offset + chunk.first_data_line),
                        columns == Columns::three
                            ? fmt::format("missing weight: line {} has a third column (weight)", at(columns_line))
                            : fmt::format("unexpected third column (weight): line {} has none", at(columns_line)));
    if (columns == Columns::unknown && chunk.columns != Columns::unknown) {
      columns = chunk.columns;
      columns_line = line_offset + chunk.first_data_line;
    }
    line_offset += chunk.lines;
  }
}

template <class T>
void append_and_free(std::vector<T>& to, std::vector<T>& from) {
  if (to.capacity() == 0) {
    to.swap(from);  // one chunk: nothing to copy
  } else {
    to.insert(to.end(), from.begin(), from.end());
  }
  from = {};
}

// A weight beyond uint32 is an error unless the file has real weights. Reading the whole file,
// join decides; reading a part, it hands the message to `deferred` (the parts decide together).
template <class LinesBefore>
EdgeList join(const std::string& path, std::vector<Chunk>& chunks, LinesBefore&& lines_before,
              const ReadOptions& options, std::string* deferred = nullptr) {
  std::uint64_t total = 0, line_offset = 0, max_id_line = 0;
  bool any_real = false, weighted = false;
  const ChunkFailure* bad_integer = nullptr;
  std::uint64_t bad_integer_line = 0;
  EdgeList list;
  for (const Chunk& chunk : chunks) {
    total += chunk.edges.size();
    any_real = any_real || chunk.saw_real;
    weighted = weighted || chunk.columns == Columns::three;
    if (!chunk.edges.empty() && chunk.max_id + 1 > list.num_vertices) {
      list.num_vertices = chunk.max_id + 1;
      max_id_line = line_offset + chunk.max_id_line;
    }
    if (chunk.bad_integer && !bad_integer) {
      bad_integer = &*chunk.bad_integer;
      bad_integer_line = line_offset + chunk.bad_integer->line;
    }
    line_offset += chunk.lines;
  }
  if (options.check_id_range && list.num_vertices > 0)
    check_id_range(path, list.num_vertices - 1,
                   fmt::format("vertex id {}", list.num_vertices - 1 + static_cast<vertex_t>(options.base)),
                   [&] { return lines_before() + max_id_line; });
  if (bad_integer && deferred) {
    *deferred = fmt::format("{}:{}: {}", path, lines_before() + bad_integer_line, bad_integer->what);
    any_real = true;  // keep the wide weight as a real: fine if another part has reals, an error if not
  } else if (weighted && !any_real && bad_integer) {
    throw_input_error(path, lines_before() + bad_integer_line, bad_integer->what);
  }

  if (chunks.size() > 1) list.edges.reserve(total);
  std::vector<std::uint32_t> int_weights;
  std::vector<float> real_weights;
  if (weighted && chunks.size() > 1) {
    if (any_real)
      real_weights.reserve(total);
    else
      int_weights.reserve(total);
  }
  for (Chunk& chunk : chunks) {
    append_and_free(list.edges, chunk.edges);
    if (!weighted) continue;
    if (!any_real) {
      append_and_free(int_weights, chunk.int_weights);
    } else if (chunk.real_mode) {
      append_and_free(real_weights, chunk.real_weights);
    } else {
      real_weights.insert(real_weights.end(), chunk.int_weights.begin(), chunk.int_weights.end());
      chunk.int_weights = {};
    }
  }
  if (weighted) {
    if (any_real)
      list.weights = std::move(real_weights);
    else
      list.weights = std::move(int_weights);
  }
  return list;
}

// Courier writes its counts in a first comment line that other readers skip: the vertex count
// survives a round trip (trailing isolated vertices appear in no edge), and a truncated file is
// caught by its edge count.
constexpr std::string_view kCountsComment = "# courier edge list:";

struct DeclaredCounts {
  vertex_t vertices = 0;
  edge_t edges = 0;
  unsigned base = 0;
};

std::optional<DeclaredCounts> read_counts_comment(const std::string& path, std::string_view text) {
  if (!text.starts_with(kCountsComment)) return std::nullopt;
  const std::string_view line = text.substr(0, text.find('\n'));
  DeclaredCounts counts;
  unsigned long long vertices = 0, edges = 0;
  unsigned base = 0;
  if (std::sscanf(std::string(line.substr(kCountsComment.size())).c_str(), " vertices %llu edges %llu base %u",
                  &vertices, &edges, &base) != 3 ||
      base > 1)
    throw_input_error(path, 1, "malformed counts comment: expected '# courier edge list: vertices N edges M base 0|1'");
  counts.vertices = vertices;
  counts.edges = edges;
  counts.base = base;
  return counts;
}

void apply_counts_comment(const std::string& path, const DeclaredCounts& declared, int base, EdgeList& list) {
  if (static_cast<int>(declared.base) != base)
    throw_input_error(path, 1, fmt::format("the file numbers vertices from {}: read it with --base {}", declared.base,
                                           declared.base));
  if (declared.edges != list.edges.size())
    throw_input_error(path, 1, fmt::format("the header declares {} edges but the file has {}: is it truncated?",
                                           declared.edges, list.edges.size()));
  if (list.num_vertices > declared.vertices)
    throw_input_error(path, 1, fmt::format("the header declares {} vertices but vertex id {} appears",
                                           declared.vertices, list.num_vertices - 1));
  list.num_vertices = declared.vertices;
}

// Parses every chunk, one thread each (the calling thread alone when there is one chunk).
void parse_chunks(std::vector<Chunk>& chunks, const std::string& path, std::size_t bytes, const ReadOptions& options) {
  const Syntax syntax{static_cast<vertex_t>(options.base), options.weight_column};
  Progress progress("reading " + path, bytes);
  if (chunks.size() == 1) {
    parse_chunk(chunks[0], syntax, progress);
    return;
  }
  std::vector<std::thread> workers;
  for (Chunk& chunk : chunks)
    workers.emplace_back([&chunk, &syntax, &progress] { parse_chunk(chunk, syntax, progress); });
  for (auto& worker : workers) worker.join();
}

}  // namespace

EdgeList read_text(const MappedFile& file, const ReadOptions& options) {
  const std::string_view text = file.text();
  std::vector<Chunk> chunks = split(text, choose_threads(text.size(), options.threads));
  parse_chunks(chunks, file.path(), text.size(), options);
  const auto no_lines_before = [] { return std::uint64_t{0}; };
  throw_first_problem(file.path(), chunks, no_lines_before);
  EdgeList list = join(file.path(), chunks, no_lines_before, options);
  if (const auto declared = read_counts_comment(file.path(), text)) apply_counts_comment(file.path(), *declared, options.base, list);
  return list;
}

EdgeSlice read_text_range(const MappedFile& file, const ReadOptions& options, std::size_t begin, std::size_t end) {
  const std::string_view text = file.text();
  const std::size_t first = line_start_at_or_after(text, begin), last = line_start_at_or_after(text, end);
  const std::string_view range = text.substr(first, last - first);
  std::vector<Chunk> chunks = split(range, choose_threads(range.size(), options.threads));
  parse_chunks(chunks, file.path(), range.size(), options);
  const LinesBefore lines_before(text, first);
  throw_first_problem(file.path(), chunks, lines_before);

  EdgeSlice slice;
  for (const Chunk& chunk : chunks) {
    slice.facts.records += chunk.edges.size();
    slice.facts.saw_real = slice.facts.saw_real || chunk.saw_real;
  }
  // The first data line's columns and where it starts, for the agreement between parts.
  std::uint64_t offset = 0;
  for (const Chunk& chunk : chunks) {
    if (chunk.columns != Columns::unknown) {
      slice.facts.columns = chunk.columns == Columns::three ? 3 : 2;
      slice.facts.columns_byte = first + offset + byte_of_line(chunk.text, chunk.first_data_line);
      break;
    }
    offset += chunk.text.size();
  }
  slice.edges = join(file.path(), chunks, lines_before, options, &slice.facts.deferred_error);
  slice.facts.vertices = slice.edges.num_vertices;
  if (const auto declared = read_counts_comment(file.path(), text)) {
    if (static_cast<int>(declared->base) != options.base)
      throw_input_error(file.path(), 1, fmt::format("the file numbers vertices from {}: read it with --base {}",
                                                    declared->base, declared->base));
    slice.declared_vertices = declared->vertices;
    slice.declared_records = declared->edges;
    slice.declared_line = 1;
  }
  return slice;
}

void write_text(const std::string& path, const EdgeList& list, const WriteOptions& options) {
  AtomicFile file(path);
  file.write(fmt::format("{} vertices {} edges {} base {}\n", kCountsComment, list.num_vertices, list.edges.size(),
                         options.base));
  const auto base = static_cast<vertex_t>(options.base);
  std::visit(
      [&](const auto& weights) {
        using W = std::decay_t<decltype(weights)>;
        write_blocks(file, list.edges.size(), [&](std::uint64_t first, std::uint64_t last, fmt::memory_buffer& out) {
          for (std::uint64_t i = first; i < last; ++i) {
            append_int(out, list.edges[i].src + base);
            out.push_back(' ');
            append_int(out, list.edges[i].dst + base);
            if constexpr (std::is_same_v<W, std::vector<std::uint32_t>>) {
              out.push_back(' ');
              append_int(out, weights[i]);
            } else if constexpr (std::is_same_v<W, std::vector<float>>) {
              out.push_back(' ');
              append_real(out, weights[i]);
            }
            out.push_back('\n');
          }
        });
      },
      list.weights);
  file.commit();
}

}  // namespace courier::graph::io
