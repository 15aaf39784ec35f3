// "kron:SCALE[:ef=E][:seed=S]" and "urand:SCALE[...]": the names of generated graphs wherever a
// graph file name is accepted.
#include <charconv>
#include <string>

#include <fmt/format.h>

#include "courier/core/error.hpp"
#include "courier/graph/generate.hpp"

namespace courier::graph {

namespace {

constexpr std::string_view kForm =
    "the form is kron:SCALE or urand:SCALE with SCALE in 1..40, optionally followed by :ef=E "
    "(edge factor, default 16) and :seed=S, e.g. kron:16 or urand:12:ef=8";

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
  if (spec.starts_with("kron:")) {
    parsed.kind = Generator::kronecker;
    rest = spec.substr(5);
  } else if (spec.starts_with("urand:")) {
    parsed.kind = Generator::uniform;
    rest = spec.substr(6);
  } else {
    return false;
  }

  const std::string_view scale = rest.substr(0, rest.find(':'));
  if (scale.empty()) malformed(spec, "the scale is missing");
  if (!parse_whole(scale, parsed.scale) || parsed.scale < kMinGeneratorScale ||
      parsed.scale > kMaxGeneratorScale)
    malformed(spec, fmt::format("the scale '{}' is not an integer in 1..40", scale));
  rest.remove_prefix(scale.size());

  while (!rest.empty()) {
    rest.remove_prefix(1);  // the ':'
    const std::string_view field = rest.substr(0, rest.find(':'));
    rest.remove_prefix(field.size());
    if (field.starts_with("ef=")) {
      if (!parse_whole(field.substr(3), parsed.edge_factor) || parsed.edge_factor < 1 ||
          parsed.edge_factor > kMaxEdgeFactor)
        malformed(spec, fmt::format("the edge factor in '{}' is not an integer in 1..{}", field,
                                    kMaxEdgeFactor));
    } else if (field.starts_with("seed=")) {
      if (!parse_whole(field.substr(5), parsed.seed))
        malformed(spec, fmt::format("the seed in '{}' is not an unsigned 64-bit integer", field));
    } else {
      malformed(spec, fmt::format("'{}' is not ef=E or seed=S", field));
    }
  }
  options = parsed;
  return true;
}

std::string generator_spec(const GeneratorOptions& options) {
  const GeneratorOptions defaults;
  std::string spec = fmt::format("{}:{}", options.kind == Generator::kronecker ? "kron" : "urand",
                                 options.scale);
  if (options.edge_factor != defaults.edge_factor) spec += fmt::format(":ef={}", options.edge_factor);
  if (options.seed != defaults.seed) spec += fmt::format(":seed={}", options.seed);
  return spec;
}

}  // namespace courier::graph
