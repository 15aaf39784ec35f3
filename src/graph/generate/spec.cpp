// "kron:SCALE[:ef=E][:seed=S]", "rmat:SCALE[:ef=E][:a=A][:b=B][:c=C][:seed=S]" (Kronecker with
// chosen quadrant probabilities; rmat:S is kron:S), "urand:SCALE[...]", "path:N[:seed=S]" and
// "grid:RxC[:seed=S]": the names of generated graphs wherever a graph file name is accepted.
#include <charconv>
#include <string>

#include <fmt/format.h>

#include "courier/core/error.hpp"
#include "courier/graph/generate.hpp"

namespace courier::graph {

namespace {

constexpr std::string_view kForm =
    "the form is kron:SCALE, rmat:SCALE or urand:SCALE with SCALE in 1..40, optionally followed by :ef=E "
    "(edge factor, default 16) and :seed=S, and for rmat :a=A:b=B:c=C (quadrant probabilities, default "
    "0.57, 0.19, 0.19), e.g. kron:16, rmat:16:a=0.45:b=0.15:c=0.15 or urand:12:ef=8; or path:N or grid:RxC "
    "(N or R x C vertices, at most 2^40), optionally followed by :seed=S, e.g. path:1000000 or grid:1000x1000";

[[noreturn]] void malformed(std::string_view spec, std::string_view what) {
  throw InputError(fmt::format("generator spec '{}': {}; {} (a file with this name is read as ./{})",
                               spec, what, kForm, spec));
}

template <class Int>
bool parse_whole(std::string_view text, Int& value) {
  if (text.empty()) return false;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  return ec == std::errc{} && end == text.data() + text.size();
}

}  // namespace

bool parse_generator_spec(std::string_view spec, GeneratorOptions& options) {
  GeneratorOptions parsed = options;
  std::string_view rest;
  bool rmat = false;
  if (spec.starts_with("rmat:")) {
    parsed.kind = Generator::kronecker;
    rmat = true;
    rest = spec.substr(5);
  } else if (spec.starts_with("kron:")) {
    parsed.kind = Generator::kronecker;
    rest = spec.substr(5);
  } else if (spec.starts_with("urand:")) {
    parsed.kind = Generator::uniform;
    rest = spec.substr(6);
  } else if (spec.starts_with("path:")) {
    parsed.kind = Generator::path;
    rest = spec.substr(5);
  } else if (spec.starts_with("grid:")) {
    parsed.kind = Generator::grid;
    rest = spec.substr(5);
  } else {
    return false;
  }
  const bool lattice = parsed.kind == Generator::path || parsed.kind == Generator::grid;

  const std::string_view size = rest.substr(0, rest.find(':'));
  if (size.empty()) malformed(spec, lattice ? "the size is missing" : "the scale is missing");
  if (parsed.kind == Generator::path) {
    parsed.rows = 1;
    if (!parse_whole(size, parsed.columns) || parsed.columns == 0 || parsed.columns > kMaxLatticeVertices)
      malformed(spec, fmt::format("the vertex count '{}' is not an integer in 1..2^40", size));
  } else if (parsed.kind == Generator::grid) {
    const std::size_t x = size.find('x');
    if (x == std::string_view::npos || !parse_whole(size.substr(0, x), parsed.rows) ||
        !parse_whole(size.substr(x + 1), parsed.columns) || parsed.rows == 0 || parsed.columns == 0 ||
        parsed.columns > kMaxLatticeVertices / parsed.rows)
      malformed(spec, fmt::format("the size '{}' is not RxC with 1 to 2^40 vertices in all", size));
  } else if (!parse_whole(size, parsed.scale) || parsed.scale < kMinGeneratorScale ||
             parsed.scale > kMaxGeneratorScale) {
    malformed(spec, fmt::format("the scale '{}' is not an integer in 1..40", size));
  }
  rest.remove_prefix(size.size());

  while (!rest.empty()) {
    rest.remove_prefix(1);  // the ':'
    const std::string_view field = rest.substr(0, rest.find(':'));
    rest.remove_prefix(field.size());
    if (field.starts_with("ef=") && !lattice) {
      if (!parse_whole(field.substr(3), parsed.edge_factor) || parsed.edge_factor < 1 ||
          parsed.edge_factor > kMaxEdgeFactor)
        malformed(spec, fmt::format("the edge factor in '{}' is not an integer in 1..{}", field,
                                    kMaxEdgeFactor));
    } else if (rmat && field.size() > 2 && field[1] == '=' && (field[0] == 'a' || field[0] == 'b' || field[0] == 'c')) {
      double& p = field[0] == 'a' ? parsed.a : field[0] == 'b' ? parsed.b : parsed.c;
      const std::string_view text = field.substr(2);
      const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), p);
      if (ec != std::errc{} || end != text.data() + text.size() || !(p >= 0 && p <= 1))
        malformed(spec, fmt::format("the probability in '{}' is not a number in [0, 1]", field));
    } else if (field.starts_with("seed=")) {
      if (!parse_whole(field.substr(5), parsed.seed))
        malformed(spec, fmt::format("the seed in '{}' is not an unsigned 64-bit integer", field));
    } else {
      malformed(spec, fmt::format("'{}' is not {}", field,
                                  lattice ? "seed=S"
                                  : rmat  ? "ef=E, a=A, b=B, c=C or seed=S"
                                          : "ef=E or seed=S"));
    }
  }
  if (!rmat_probabilities_valid(parsed.a, parsed.b, parsed.c))
    malformed(spec, fmt::format("a + b + c = {} exceeds 1 (d = 1 - a - b - c is the fourth quadrant's)",
                                parsed.a + parsed.b + parsed.c));
  options = parsed;
  return true;
}

std::string generator_spec(const GeneratorOptions& options) {
  const GeneratorOptions defaults;
  std::string spec;
  if (options.kind == Generator::path) {
    spec = fmt::format("path:{}", options.columns);
  } else if (options.kind == Generator::grid) {
    spec = fmt::format("grid:{}x{}", options.rows, options.columns);
  } else {
    const bool rmat = options.kind == Generator::kronecker &&
                      (options.a != defaults.a || options.b != defaults.b || options.c != defaults.c);
    spec = fmt::format("{}:{}", rmat ? "rmat" : options.kind == Generator::kronecker ? "kron" : "urand", options.scale);
    if (options.edge_factor != defaults.edge_factor) spec += fmt::format(":ef={}", options.edge_factor);
    if (rmat) spec += fmt::format(":a={}:b={}:c={}", options.a, options.b, options.c);
  }
  if (options.seed != defaults.seed) spec += fmt::format(":seed={}", options.seed);
  return spec;
}

}  // namespace courier::graph
