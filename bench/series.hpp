#pragma once
// What the alternated-series benchmarks share: RANKSxTHREADS shapes, medians, and the check that
// two runs' values agree (integers equal, reals within 1e-6 in L1).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <variant>
#include <vector>

#include "courier/core/error.hpp"
#include "courier/harness/values.hpp"

namespace courier::bench {

struct Shape {
  int ranks = 1;
  unsigned threads = 1;
};

inline Shape parse_shape(const std::string& text) {
  Shape s;
  if (std::sscanf(text.c_str(), "%dx%u", &s.ranks, &s.threads) != 2 || s.ranks < 1 || s.threads < 1)
    throw InputError("--shapes: write RANKSxTHREADS, e.g. 2x1, not '" + text + "'");
  return s;
}

inline bool same(const harness::Values& a, const harness::Values& b) {
  if (a.index() != b.index()) return false;
  if (const auto* reals = std::get_if<std::vector<double>>(&a)) {
    const auto& other = std::get<std::vector<double>>(b);
    if (reals->size() != other.size()) return false;
    double l1 = 0;
    for (std::size_t v = 0; v < reals->size(); ++v) l1 += std::abs((*reals)[v] - other[v]);
    return l1 < 1e-6;
  }
  return a == b;
}

// The upper median (the middle one of an odd count).
inline double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

}  // namespace courier::bench
