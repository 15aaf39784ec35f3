#include "courier/core/memory.hpp"

#include <fmt/format.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "courier/core/error.hpp"

namespace courier {

std::uint64_t physical_memory_bytes() {
  const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGESIZE);
  return pages > 0 && page > 0 ? static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page) : 0;
}

std::uint64_t peak_resident_bytes() {
  rusage usage{};
  if (::getrusage(RUSAGE_SELF, &usage) != 0) return 0;
  return static_cast<std::uint64_t>(usage.ru_maxrss) * 1024;  // KiB on Linux
}

void release_pages(const void* from, std::size_t bytes) {
  const auto page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
  const auto begin = reinterpret_cast<std::uintptr_t>(from);
  const std::uintptr_t lo = (begin + page - 1) / page * page, hi = (begin + bytes) / page * page;
  if (lo < hi) ::madvise(reinterpret_cast<void*>(lo), hi - lo, MADV_DONTNEED);  // advice: a failure costs only memory
}

std::string format_bytes(std::uint64_t bytes) {
  constexpr const char* kUnits[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  double value = static_cast<double>(bytes);
  std::size_t unit = 0;
  while (value >= 1024 && unit + 1 < std::size(kUnits)) value /= 1024, ++unit;
  return unit == 0 ? fmt::format("{} bytes", bytes) : fmt::format("{:.1f} {}", value, kUnits[unit]);
}

namespace {

std::uint64_t memory_available() {  // 0: cannot tell
  std::uint64_t machine = physical_memory_bytes();
  if (const char* limit = std::getenv("COURIER_MEMORY_LIMIT"); limit != nullptr && *limit != '\0')
    machine = std::min<std::uint64_t>(machine == 0 ? UINT64_MAX : machine, std::strtoull(limit, nullptr, 10));
  return machine;
}

}  // namespace

bool fits_in_memory(std::uint64_t bytes) {
  const std::uint64_t machine = memory_available();
  if (machine == 0 || bytes <= machine) return true;
  const char* ignore = std::getenv("COURIER_IGNORE_MEMORY_ESTIMATE");
  return ignore != nullptr && *ignore == '1';
}

void check_memory(std::string_view what, std::uint64_t bytes, std::string_view fix) {
  if (fits_in_memory(bytes)) return;
  throw InputError(
      fmt::format("{} needs about {}, and this machine has {}: {} (COURIER_IGNORE_MEMORY_ESTIMATE=1 "
                  "tries anyway)",
                  what, format_bytes(bytes), format_bytes(memory_available()), fix));
}

}  // namespace courier
