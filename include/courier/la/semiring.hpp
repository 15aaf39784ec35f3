#pragma once
// Semirings (paper 003, section 3): y[r] = add(y[r], multiply(a, x[c])) over a tile's entries.
// Each is a type with static inline members, so the kernel instantiates and inlines them: no
// virtual call and no std::function on the per-edge path. `identity` is add's identity (what an
// untouched y holds, and the placeholder of an inactive x in a dense segment).
#include <algorithm>
#include <cstdint>
#include <limits>

namespace courier::la {

// y = A x with real values (pagerank, spmv).
struct PlusTimes {
  using X = double;
  using Y = double;
  static constexpr Y identity = 0;
  static Y multiply(float a, X x) { return static_cast<double>(a) * x; }
  static Y add(Y y, Y v) { return y + v; }
  static constexpr bool unit_values = false;  // reads the tile's values
};

// y = the sum of x over in-neighbours, ignoring values (pagerank on an unweighted graph).
struct PlusSecond {
  using X = double;
  using Y = double;
  static constexpr Y identity = 0;
  static Y multiply(float, X x) { return x; }
  static Y add(Y y, Y v) { return y + v; }
  static constexpr bool unit_values = true;
};

// pagerank's: the sum of x over in-neighbours, x as floats (the shares rank / out-degree, as the
// vertex engine sends them: half the bytes to send and to read per edge), summed in double.
struct PlusSecondFloat {
  using X = float;
  using Y = double;
  static constexpr Y identity = 0;
  static Y multiply(float, X x) { return x; }
  static Y add(Y y, Y v) { return y + v; }
  static constexpr bool unit_values = true;
};

// Shortest paths: y = min over in-neighbours of (x + weight).
struct MinPlus {
  using X = std::uint64_t;
  using Y = std::uint64_t;
  static constexpr Y identity = std::numeric_limits<Y>::max();
  static Y multiply(float a, X x) { return x == identity ? identity : x + static_cast<std::uint64_t>(a); }
  static Y add(Y y, Y v) { return std::min(y, v); }
  static constexpr bool unit_values = false;
};

// Labels and levels: y = the smallest x over in-neighbours (cc's labels, bfs's frontier ids).
struct MinSecond {
  using X = std::uint64_t;
  using Y = std::uint64_t;
  static constexpr Y identity = std::numeric_limits<Y>::max();
  static Y multiply(float, X x) { return x; }
  static Y add(Y y, Y v) { return std::min(y, v); }
  static constexpr bool unit_values = true;
};

// Reachability: y = whether any in-neighbour is set.
struct OrAnd {
  using X = std::uint8_t;
  using Y = std::uint8_t;
  static constexpr Y identity = 0;
  static Y multiply(float, X x) { return x; }
  static Y add(Y y, Y v) { return y | v; }
  static constexpr bool unit_values = true;
};

}  // namespace courier::la
