// A .csr part's rows borrowed from the mapped file: release_all() drops every page this process
// mapped of the file (resident memory is what issue 16's budget counts), and the rows read the
// same afterwards (the pages come back from the page cache).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <numeric>
#include <optional>

#include "courier/graph/io.hpp"
#include "courier/graph/load.hpp"
#include "courier/graph/slice.hpp"
#include "graph/io/io_test_util.hpp"

namespace csr_rows_test {

using namespace courier;
using namespace courier::graph;
using namespace courier::graph::test;

namespace {

// Pages of [data, data + bytes) mapped in this process now (/proc/self/pagemap's present bit);
// nullopt where the kernel does not show it.
std::optional<std::size_t> mapped_pages(const char* data, std::size_t bytes) {
  const long page = ::sysconf(_SC_PAGESIZE);
  const int fd = ::open("/proc/self/pagemap", O_RDONLY);
  if (fd < 0) return std::nullopt;
  std::size_t present = 0;
  const auto first = reinterpret_cast<std::uintptr_t>(data) / page;
  const auto last = (reinterpret_cast<std::uintptr_t>(data) + bytes + page - 1) / page;
  for (std::uintptr_t p = first; p < last; ++p) {
    std::uint64_t entry = 0;
    if (::pread(fd, &entry, sizeof entry, static_cast<off_t>(p * sizeof entry)) != sizeof entry) break;
    present += entry >> 63;
  }
  ::close(fd);
  return present;
}

std::uint64_t sum_of_targets(const CsrRows& rows) {
  std::uint64_t sum = 0;
  rows.visit(0, rows.edges(), [&](vertex_t s, vertex_t d, edge_t) { sum += s * 31 + d; });
  return sum;
}

}  // namespace

TEST(CsrRows, ReleaseAllUnmapsTheWholeFileAndTheRowsReadTheSameAfter) {
  const auto dir = test_dir();
  const std::string path = (dir / "g.csr").string();
  write_csr(path, build_csr(random_graph(20000, 400000, WeightType::none)));  // about 1.7 MB
  LoadOptions options;
  options.read.csr_rows = true;
  const EdgeSlice slice = read_edge_slice(path, options, 0, 1);
  ASSERT_TRUE(slice.rows.has_value());
  const CsrRows& rows = *slice.rows;
  ASSERT_TRUE(rows.file);
  const std::uint64_t before = sum_of_targets(rows);  // maps every row's pages
  const std::optional<std::size_t> mapped = mapped_pages(rows.file->data(), rows.file->size());
  if (!mapped) GTEST_SKIP() << "/proc/self/pagemap cannot be read here";
  ASSERT_GT(*mapped, 0u);

  rows.release_all();
  EXPECT_EQ(mapped_pages(rows.file->data(), rows.file->size()), std::optional<std::size_t>(0));
  EXPECT_EQ(sum_of_targets(rows), before);
}

}  // namespace csr_rows_test
