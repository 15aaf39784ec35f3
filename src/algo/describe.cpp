#include "describe.hpp"

#include <algorithm>
#include <limits>
#include <type_traits>

#include <fmt/format.h>

#include "courier/graph/reference/unreached.hpp"

namespace courier::algo::describe {

harness::OptionSpec source_option() {
  return {.name = "source",
          .help = "the source vertex (default: the largest out-degree)",
          .check = harness::whole_number("source"),
          .letter = 's'};
}

const std::vector<std::uint64_t>& integers(const harness::Output& output) {
  return std::get<std::vector<std::uint64_t>>(output.values);
}

const std::vector<double>& reals(const harness::Output& output) { return std::get<std::vector<double>>(output.values); }

harness::Summary distances(const harness::Values& values, graph::vertex_t source, bool levels) {
  harness::Summary summary;
  std::uint64_t reached = 0;
  std::visit(
      [&](const auto& dist) {
        using T = typename std::decay_t<decltype(dist)>::value_type;
        const T unreached = std::is_same_v<T, double> ? std::numeric_limits<T>::infinity()
                                                      : T(graph::reference::kUnreached);
        T sum = 0, largest = 0;
        for (T d : dist) {
          if (d == unreached) continue;
          ++reached;
          sum += d;
          largest = std::max(largest, d);
        }
        summary.lines = {{"Source", fmt::format("{}", source)}, {"Reached", fmt::format("{} vertices", reached)}};
        // Built, then assigned: clang 14 leaks the old object assigning a braced list in a generic lambda.
        summary.json = nlohmann::json{{"source", source}, {"reached", reached}};
        if (levels) {
          const T count = reached == 0 ? 0 : largest + 1;
          summary.lines.emplace_back("Levels", fmt::format("{}", count));
          summary.json["levels"] = count;
        } else {
          summary.lines.emplace_back("Distances", fmt::format("sum {}, largest {}", sum, largest));
          summary.json["distance_sum"] = sum;
          summary.json["distance_max"] = largest;
        }
      },
      values);
  return summary;
}

harness::Verdict by_itself(const std::string& algorithm) {
  return {"none: the seq engine is the reference for " + algorithm, ""};
}

}  // namespace courier::algo::describe
