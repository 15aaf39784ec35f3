#pragma once
// Values: one result per vertex, integers (levels, distances, labels, counts) or reals (ranks,
// products); graph::reference::kUnreached marks an unreached vertex. A kernel may hand back 32-bit
// integers as it keeps them (kNarrowUnreached marking an unreached vertex), so that its timed run
// makes no 8-byte copy of them; widen() turns them into the 64-bit form, which is all that readers
// of a result (summaries, verifiers, writers, bindings) see: harness::run widens once the clock has
// stopped.
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

namespace courier::harness {

using Values = std::variant<std::vector<std::uint64_t>, std::vector<double>, std::vector<std::uint32_t>>;

inline constexpr std::uint32_t kNarrowUnreached = UINT32_MAX;

// 32-bit integers become 64-bit ones (kNarrowUnreached -> kUnreached); the other forms stay.
void widen(Values& values);

// "vertex value" lines, one per vertex ("inf" for unreached), written atomically.
void write_values(const std::string& path, const Values& values);

}  // namespace courier::harness
