// WebGraph BVGraph files (Boldi and Vigna, "The WebGraph Framework I"; the BVGraph javadoc), the
// format of the Laboratory for Web Algorithmics collections: BASENAME.properties (the parameters),
// BASENAME.graph (the successor lists as one bit stream) and BASENAME.offsets (the bit offset of
// every list, gamma-coded differences). Each list, for vertex x:
//   outdegree d; if d > 0: the reference r <= window size (if the window is not 0); if r > 0, a
//   block count and blocks saying which successors of x - r to copy (copy, skip, copy, ...; the
//   rest of the list is copied iff the count is even; blocks after the first are stored minus 1);
//   then, if successors remain, an interval count and intervals (left extreme, length - minimum
//   length; the first extreme relative to x and sign-folded, the others after the previous
//   interval's end + 1); then the residuals (the first relative to x, sign-folded; the others as
//   gaps minus 1). The successors are the sorted union of the three parts.
// A list can copy from the lists in the window before it, so a part of the file that starts at
// vertex f first decodes the window before f, each of those lists by its own offset.
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <map>

#include "bit_reader.hpp"
#include "courier/core/progress.hpp"
#include "formats.hpp"
#include "line_reader.hpp"

namespace courier::graph::io {

namespace {

struct Parameters {
  std::string properties;  // the .properties path, for messages
  vertex_t nodes = 0;
  edge_t arcs = 0;
  std::uint64_t window = 0;
  std::uint64_t min_interval = 0;  // 0: no intervals
  unsigned k = 3;                  // zeta_k / Golomb modulus of the residuals
  Code outdegree = Code::gamma, reference = Code::unary, block_count = Code::gamma, block = Code::gamma,
       residual = Code::zeta, offset = Code::gamma;
};

std::string basename_of(const std::string& graph_path) {
  return graph_path.substr(0, graph_path.size() - std::string_view(".graph").size());
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

// COMPONENT_CODING flags joined by '|' (OUTDEGREES_GAMMA|RESIDUALS_ZETA); an empty string keeps the
// defaults.
void parse_flags(std::string_view flags, Parameters& p, std::uint64_t line) {
  static const std::map<std::string_view, Code Parameters::*> kComponents{
      {"OUTDEGREES", &Parameters::outdegree},    {"REFERENCES", &Parameters::reference},
      {"BLOCK_COUNT", &Parameters::block_count}, {"BLOCKS", &Parameters::block},
      {"RESIDUALS", &Parameters::residual},      {"OFFSETS", &Parameters::offset}};
  static const std::map<std::string_view, Code> kCodes{{"GAMMA", Code::gamma},   {"DELTA", Code::delta},
                                                       {"ZETA", Code::zeta},     {"UNARY", Code::unary},
                                                       {"NIBBLE", Code::nibble}, {"GOLOMB", Code::golomb}};
  while (!trim(flags).empty()) {
    const std::size_t bar = flags.find('|');
    const std::string_view flag = trim(flags.substr(0, bar));
    flags = bar == std::string_view::npos ? std::string_view() : flags.substr(bar + 1);
    const std::size_t cut = flag.rfind('_');
    const auto component = kComponents.find(cut == std::string_view::npos ? flag : flag.substr(0, cut));
    const auto code = cut == std::string_view::npos ? kCodes.end() : kCodes.find(flag.substr(cut + 1));
    if (component == kComponents.end() || code == kCodes.end())
      throw_input_error(p.properties, line,
                        fmt::format("unknown compression flag '{}': expected COMPONENT_CODE with COMPONENT one of "
                                    "OUTDEGREES, REFERENCES, BLOCK_COUNT, BLOCKS, RESIDUALS, OFFSETS and CODE one of "
                                    "GAMMA, DELTA, ZETA, UNARY, NIBBLE, GOLOMB",
                                    flag));
    p.*(component->second) = code->second;
  }
}

// The Java properties the decoder needs; the statistics beside them are ignored.
Parameters read_properties(const std::string& path) {
  Parameters p;
  p.properties = path;
  const auto file = MappedFile::open(path);
  std::map<std::string, std::pair<std::string, std::uint64_t>, std::less<>> values;  // key -> (value, line)
  LineReader lines(file->text());
  std::string_view line;
  while (lines.next(line)) {
    line = trim(line);
    if (line.empty() || line[0] == '#' || line[0] == '!') continue;
    const std::size_t eq = line.find_first_of("=:");
    if (eq == std::string_view::npos) throw_input_error(path, lines.line_number(), "expected 'key=value'");
    values[std::string(trim(line.substr(0, eq)))] = {std::string(trim(line.substr(eq + 1))), lines.line_number()};
  }
  const auto number = [&](std::string_view key, bool required, std::uint64_t fallback) -> std::uint64_t {
    const auto it = values.find(key);
    if (it == values.end()) {
      if (required)
        throw_input_error(path, 0,
                          fmt::format("missing the key '{}': is this a WebGraph BVGraph .properties file?", key));
      return fallback;
    }
    const std::string& text = it->second.first;
    std::uint64_t value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc{} || end != text.data() + text.size())
      throw_input_error(path, it->second.second, fmt::format("{}={}: expected a non-negative integer", key, text));
    return value;
  };
  if (const auto it = values.find("graphclass"); it != values.end()) {
    const std::string& cls = it->second.first;
    if (!cls.ends_with(".BVGraph") && cls != "BVGraph")
      throw_input_error(path, it->second.second,
                        fmt::format("graphclass={}: Courier reads BVGraph files only (convert it to BVGraph with "
                                    "WebGraph first)",
                                    cls));
  }
  if (number("version", false, 0) > 0)
    throw_input_error(
        path, values["version"].second,
        fmt::format("BVGraph format version {} is not supported (Courier reads version 0)", values["version"].first));
  p.nodes = number("nodes", true, 0);
  p.arcs = number("arcs", true, 0);
  p.window = number("windowsize", true, 0);
  p.min_interval = number("minintervallength", true, 0);
  const std::uint64_t k = number("zetak", false, 3);
  if (k < 1 || k > 32) throw_input_error(path, values["zetak"].second, fmt::format("zetak={} is not in 1..32", k));
  p.k = static_cast<unsigned>(k);
  if (p.window > (1u << 20))
    throw_input_error(path, values["windowsize"].second, fmt::format("windowsize={} is implausibly large", p.window));
  if (const auto it = values.find("compressionflags"); it != values.end())
    parse_flags(it->second.first, p, it->second.second);
  return p;
}

bool exists(const std::string& path) {
  struct stat info;
  return ::stat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode);
}

// The n + 1 bit offsets of the lists (the last one is the end of the stream), or empty without a
// .offsets file.
std::vector<std::uint64_t> read_offsets(const std::string& path, const Parameters& p, std::uint64_t graph_bits) {
  if (!exists(path)) return {};
  const auto file = MappedFile::open(path);
  BitReader in(file->path(), file->data(), file->size());
  std::vector<std::uint64_t> offsets(p.nodes + 1);
  std::uint64_t at = 0;
  for (vertex_t v = 0; v <= p.nodes; ++v) {
    const std::uint64_t gap = in.read(p.offset, p.k);
    if (gap > graph_bits - at)
      throw_input_error(path, 0,
                        fmt::format("the offset of vertex {} (bit {} of this file) is beyond the {} bits of the "
                                    ".graph file: the offsets do not belong to this graph",
                                    v, in.position(), graph_bits));
    offsets[v] = at += gap;
  }
  return offsets;
}

// Decodes successor lists; `window` holds the last window + 1 lists (slot v % (window + 1)).
class Decoder {
 public:
  Decoder(const MappedFile& file, const Parameters& p)
      : file_(file), p_(p), in_(file.path(), file.data(), file.size()), window_(p.window + 1) {}

  BitReader& in() { return in_; }
  const std::vector<vertex_t>& list(vertex_t v) const { return window_[v % window_.size()]; }
  void set_list(vertex_t v, std::vector<vertex_t> list) { window_[v % window_.size()] = std::move(list); }

  // Decodes x's list at the current position into its window slot; the lists of x - window .. x - 1
  // must be in the window.
  const std::vector<vertex_t>& next(vertex_t x) {
    std::vector<vertex_t>& out = window_[x % window_.size()];
    out.clear();
    const std::uint64_t start = in_.position();
    const std::uint64_t d = in_.read(p_.outdegree, p_.k);
    if (d == 0) return out;
    if (d > p_.nodes) corrupt(x, start, fmt::format("its outdegree {} exceeds the {} vertices", d, p_.nodes));
    copied_.clear();
    std::uint64_t reference = 0;
    if (p_.window > 0) reference = in_.read(p_.reference, p_.k);
    if (reference > p_.window || reference > x)
      corrupt(x, start,
              fmt::format("it refers to the list {} before it, beyond the window of {}{}", reference, p_.window,
                          reference > x ? " or before vertex 0" : ""));
    if (reference > 0) {
      const std::vector<vertex_t>& from = list(x - reference);
      const std::uint64_t blocks = in_.read(p_.block_count, p_.k);
      std::uint64_t at = 0;
      for (std::uint64_t b = 0; b < blocks; ++b) {
        const std::uint64_t length = in_.read(p_.block, p_.k) + (b == 0 ? 0 : 1);
        if (length > from.size() - at)
          corrupt(x, start,
                  fmt::format("its copy blocks run past the {} successors of vertex {}", from.size(), x - reference));
        if (b % 2 == 0) copied_.insert(copied_.end(), from.begin() + at, from.begin() + at + length);
        at += length;
      }
      if (blocks % 2 == 0) copied_.insert(copied_.end(), from.begin() + at, from.end());
    }
    if (copied_.size() > d)
      corrupt(x, start, fmt::format("it copies {} successors but has outdegree {}", copied_.size(), d));
    std::uint64_t extra = d - copied_.size();
    intervals_.clear();
    if (extra > 0 && p_.min_interval > 0) {
      const std::uint64_t count = in_.gamma();
      std::int64_t end = 0;  // one past the previous interval
      for (std::uint64_t i = 0; i < count; ++i) {
        const std::uint64_t code = in_.gamma();
        const std::int64_t left = i == 0 ? static_cast<std::int64_t>(x) + folded(code) : end + 1 + code;
        const std::uint64_t length = in_.gamma() + p_.min_interval;
        if (left < 0 || length > extra || static_cast<std::uint64_t>(left) + length > p_.nodes)
          corrupt(x, start, "an interval of successors lies outside the vertices or the outdegree");
        for (std::uint64_t j = 0; j < length; ++j) intervals_.push_back(static_cast<vertex_t>(left) + j);
        end = left + static_cast<std::int64_t>(length);
        extra -= length;
      }
    }
    residuals_.clear();
    std::int64_t previous = 0;
    for (std::uint64_t i = 0; i < extra; ++i) {
      const std::uint64_t code = in_.read(p_.residual, p_.k);
      const std::int64_t target = i == 0 ? static_cast<std::int64_t>(x) + folded(code) : previous + 1 + code;
      if (target < 0 || static_cast<std::uint64_t>(target) >= p_.nodes)
        corrupt(x, start, fmt::format("a successor {} is outside 0..{}", target, p_.nodes - 1));
      residuals_.push_back(static_cast<vertex_t>(target));
      previous = target;
    }
    // The successors in order: the three sorted parts merged.
    out.resize(d);
    merged_.resize(copied_.size() + intervals_.size());
    std::merge(copied_.begin(), copied_.end(), intervals_.begin(), intervals_.end(), merged_.begin());
    std::merge(merged_.begin(), merged_.end(), residuals_.begin(), residuals_.end(), out.begin());
    return out;
  }

 private:
  // WebGraph's sign folding: 0, 1, 2, 3, ... stand for 0, -1, 1, -2, ...
  static std::int64_t folded(std::uint64_t code) {
    return code % 2 == 0 ? static_cast<std::int64_t>(code / 2) : -static_cast<std::int64_t>((code + 1) / 2);
  }

  [[noreturn]] void corrupt(vertex_t x, std::uint64_t bit, const std::string& what) const {
    throw_input_error(file_.path(), 0,
                      fmt::format("the list of vertex {} at bit {} (byte {}) is corrupted: {}", x, bit, bit / 8, what));
  }

  const MappedFile& file_;
  const Parameters& p_;
  BitReader in_;
  std::vector<std::vector<vertex_t>> window_;
  std::vector<vertex_t> copied_, intervals_, residuals_, merged_;
};

// Fills the window before `first` so that decoding can start there. Each of those lists is decoded
// from its own offset after its reference chain (a list refers to one earlier list, which may refer
// to another): the chain is followed back to a list without a reference, then decoded forwards,
// each list landing in its own window slot (references reach back at most the window, so a list and
// the one it refers to never share a slot).
void prime_window(Decoder& decoder, const Parameters& p, const std::vector<std::uint64_t>& offsets, vertex_t first) {
  const vertex_t from = first - std::min<vertex_t>(first, p.window);
  std::vector<std::vector<vertex_t>> primed;
  std::vector<vertex_t> chain;
  BitReader& in = decoder.in();
  for (vertex_t v = from; v < first; ++v) {
    chain.assign(1, v);
    for (;;) {
      const vertex_t u = chain.back();
      in.seek(offsets[u]);
      if (in.read(p.outdegree, p.k) == 0 || p.window == 0) break;
      const std::uint64_t reference = in.read(p.reference, p.k);
      if (reference == 0 || reference > u || reference > p.window) break;  // next() reports a bad one
      chain.push_back(u - reference);
    }
    for (auto u = chain.rbegin(); u != chain.rend(); ++u) {
      in.seek(offsets[*u]);
      decoder.next(*u);
    }
    primed.push_back(decoder.list(v));
  }
  for (vertex_t v = from; v < first; ++v) decoder.set_list(v, std::move(primed[v - from]));
}

}  // namespace

EdgeSlice read_webgraph_part(const MappedFile& file, std::uint64_t part, std::uint64_t parts) {
  const std::string base = basename_of(file.path());
  const Parameters p = read_properties(base + ".properties");
  const std::uint64_t graph_bits = std::uint64_t{file.size()} * 8;
  // Offsets let a part start where its lists start; without them parts > 0 decode from vertex 0.
  const std::vector<std::uint64_t> offsets =
      parts > 1 ? read_offsets(base + ".offsets", p, graph_bits) : std::vector<std::uint64_t>();
  // With offsets, parts hold about the same number of bits; without, the same number of vertices.
  const auto vertex_at = [&](std::uint64_t k) -> vertex_t {
    if (k == 0) return 0;
    if (k == parts) return p.nodes;
    if (offsets.empty()) return p.nodes * k / parts;
    const std::uint64_t goal = offsets.back() / parts * k + offsets.back() % parts * k / parts;
    return static_cast<vertex_t>(std::lower_bound(offsets.begin(), offsets.end() - 1, goal) - offsets.begin());
  };
  const vertex_t first = vertex_at(part), last = std::max(first, vertex_at(part + 1));

  Decoder decoder(file, p);
  vertex_t x = 0;
  if (!offsets.empty() && first > 0) {
    prime_window(decoder, p, offsets, first);
    decoder.in().seek(offsets[first]);
    x = first;
  }
  EdgeSlice slice;
  slice.edges.num_vertices = p.nodes;
  Progress progress("reading " + file.path(), (offsets.empty() ? graph_bits : offsets[last] - offsets[first]) / 8);
  std::uint64_t reported = decoder.in().position();
  for (; x < last; ++x) {
    const std::vector<vertex_t>& successors = decoder.next(x);
    if (!offsets.empty() && decoder.in().position() != offsets[x + 1])
      throw_input_error(file.path(), 0,
                        fmt::format("the list of vertex {} ends at bit {}, but {}.offsets says the next "
                                    "starts at bit {}: the offsets do not belong to this graph",
                                    x, decoder.in().position(), base, offsets[x + 1]));
    if (x >= first) {
      if (slice.edges.edges.size() + successors.size() > p.arcs)
        throw_input_error(file.path(), 0,
                          fmt::format("more arcs than the {} that {}.properties declares", p.arcs, base));
      for (const vertex_t y : successors) slice.edges.edges.push_back({x, y});
    }
    if ((x & 4095) == 0) {
      progress.add((decoder.in().position() - reported) / 8);
      reported = decoder.in().position();
    }
  }
  slice.facts.records = slice.edges.edges.size();
  slice.facts.vertices = p.nodes;
  slice.declared_vertices = p.nodes;
  slice.declared_records = p.arcs;
  return slice;
}

EdgeList read_webgraph(const MappedFile& file) {
  EdgeSlice slice = read_webgraph_part(file, 0, 1);
  if (slice.edges.edges.size() != *slice.declared_records)
    throw_input_error(file.path(), 0,
                      fmt::format("the lists hold {} arcs but {}.properties declares {}: is the file "
                                  "truncated?",
                                  slice.edges.edges.size(), basename_of(file.path()), *slice.declared_records));
  return std::move(slice.edges);
}

}  // namespace courier::graph::io
