#include "courier/core/memory.hpp"

#include <fmt/format.h>
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

std::string format_bytes(std::uint64_t bytes) {
  constexpr const char* kUnits[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  double value = static_cast<double>(bytes);
  std::size_t unit = 0;
  while (value >= 1024 && unit + 1 < std::size(kUnits)) value /= 1024, ++unit;
  return unit == 0 ? fmt::format("{} bytes", bytes) : fmt::format("{:.1f} {}", value, kUnits[unit]);
}

void check_memory(std::string_view what, std::uint64_t bytes) {
  std::uint64_t machine = physical_memory_bytes();
  if (const char* limit = std::getenv("COURIER_MEMORY_LIMIT"); limit != nullptr && *limit != '\0')
    machine = std::min<std::uint64_t>(machine == 0 ? UINT64_MAX : machine, std::strtoull(limit, nullptr, 10));
  if (machine == 0 || bytes <= machine) return;
  if (const char* ignore = std::getenv("COURIER_IGNORE_MEMORY_ESTIMATE"); ignore != nullptr && *ignore == '1') return;
  throw InputError(
      fmt::format("{} needs about {}, and this machine has {}: take a smaller graph, or spread it over "
                  "more machines under mpirun (COURIER_IGNORE_MEMORY_ESTIMATE=1 tries anyway)",
                  what, format_bytes(bytes), format_bytes(machine)));
}

}  // namespace courier
