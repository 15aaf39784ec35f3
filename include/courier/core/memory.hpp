#pragma once
// Memory a step is about to ask for, checked against the machine before it starts, so a graph
// that cannot fit is refused with the estimate rather than ending in a bare std::bad_alloc.
// COURIER_IGNORE_MEMORY_ESTIMATE=1 lets the step try anyway (swap, overcommit, a wrong estimate);
// COURIER_MEMORY_LIMIT=BYTES checks against less than the machine (a share of it, a fuzzer's limit).
#include <cstdint>
#include <string>
#include <string_view>

namespace courier {

// This machine's physical memory in bytes (0 if it cannot tell).
std::uint64_t physical_memory_bytes();

// Whether `bytes` fit this machine's memory (or COURIER_MEMORY_LIMIT); always true with
// COURIER_IGNORE_MEMORY_ESTIMATE=1 or when the machine cannot tell.
bool fits_in_memory(std::uint64_t bytes);

inline constexpr std::string_view kSmallerGraph = "take a smaller graph, or spread it over more machines under mpirun";

// InputError naming `what`, the estimate and the machine's memory (or the limit), and `fix`, when
// `bytes` do not fit.
void check_memory(std::string_view what, std::uint64_t bytes, std::string_view fix = kSmallerGraph);

// The peak resident set size of this process so far, in bytes (getrusage; 0 if it cannot tell).
std::uint64_t peak_resident_bytes();

// Gives the pages wholly inside [from, from + bytes) of an array this process allocated back to
// the system (madvise MADV_DONTNEED); they read as zeros if touched again. For an array consumed front
// to back and then destroyed, whose consumed part is never read again: its pages go as the array
// that replaces it grows, not all at its end. The array's allocation stays valid to free.
void release_pages(const void* from, std::size_t bytes);

// "17.6 TiB", "512 bytes": sizes for messages.
std::string format_bytes(std::uint64_t bytes);

}  // namespace courier
