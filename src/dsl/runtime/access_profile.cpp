#include "courier/dsl/runtime/access_profile.hpp"

#include <algorithm>

namespace courier::dsl::rt {

std::uint64_t clock_overhead_ns() {
  // The median of back-to-back readings: what a timed call costs when the call costs nothing.
  constexpr int kReadings = 201;
  std::array<std::uint64_t, kReadings> spent{};
  for (std::uint64_t& s : spent) {
    const auto start = std::chrono::steady_clock::now();
    s = static_cast<std::uint64_t>(std::chrono::nanoseconds(std::chrono::steady_clock::now() - start).count());
  }
  std::nth_element(spent.begin(), spent.begin() + kReadings / 2, spent.end());
  return spent[kReadings / 2];
}

}  // namespace courier::dsl::rt
