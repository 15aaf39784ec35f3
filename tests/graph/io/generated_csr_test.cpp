// write_generated_csr: a generated graph written as a .csr window by window, drawing the edges
// again for each window, must be the very file write_edge_list writes of the whole edge list.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>

#include "courier/graph/generate.hpp"
#include "courier/graph/io.hpp"
#include "graph/io/io_test_util.hpp"

namespace courier::graph {
namespace generated_csr_test {

std::string bytes_of(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

TEST(GeneratedCsr, IsTheFileWrittenFromTheEdgeList) {
  const auto dir = test::test_dir();
  for (const char* spec : {"kron:10", "kron:9:seed=7", "urand:9:ef=3", "grid:20x30", "path:50"})
    for (bool weights : {false, true})
      for (std::uint64_t buffer : {std::uint64_t{96}, std::uint64_t{4096}, std::uint64_t{1} << 30}) {
        SCOPED_TRACE(::testing::Message() << spec << (weights ? " weighted" : "") << ", buffer " << buffer);
        GeneratorOptions options;
        ASSERT_TRUE(parse_generator_spec(spec, options));
        options.weights = weights;
        const std::string expected = (dir / "expected.csr").string(), got = (dir / "got.csr").string();
        const bool lattice = options.kind == Generator::path || options.kind == Generator::grid;
        write_edge_list(expected, generate(options), {.symmetric = lattice});
        write_generated_csr(got, options, buffer);
        ASSERT_EQ(bytes_of(got), bytes_of(expected));
        EXPECT_EQ(test::files_in(dir), (std::vector<std::string>{"expected.csr", "got.csr"}));  // no temporaries
      }
}

TEST(GeneratedCsr, ALatticeIsKnownSymmetricAndReadsBack) {
  const auto dir = test::test_dir();
  GeneratorOptions options;
  ASSERT_TRUE(parse_generator_spec("grid:7x9", options));
  const std::string path = (dir / "grid.csr").string();
  write_generated_csr(path, options, 64);
  const Csr csr = read_csr(path);
  EXPECT_TRUE(csr.symmetric());
  EXPECT_EQ(csr.num_vertices(), 63u);
  EXPECT_EQ(csr.num_edges(), generated_edge_count(options));
}

}  // namespace generated_csr_test
}  // namespace courier::graph
