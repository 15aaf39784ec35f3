// R-MAT: Kronecker with chosen quadrant probabilities. rmat:S is kron:S; other probabilities move
// the edges where they say (checked through the id scramble, as the Graph500 test does), the spec
// round-trips, ranges are slices of the whole, and impossible probabilities are refused.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "courier/core/error.hpp"
#include "courier/graph/generate.hpp"

namespace generate_rmat_test {

using namespace courier::graph;

namespace {

GeneratorOptions spec(const std::string& text) {
  GeneratorOptions options;
  EXPECT_TRUE(parse_generator_spec(text, options)) << text;
  return options;
}

TEST(Rmat, DefaultsAreGraph500) {
  EXPECT_EQ(generate(spec("rmat:10")).edges, generate(spec("kron:10")).edges);
  EXPECT_EQ(generate(spec("rmat:9:a=0.57:b=0.19:c=0.19:seed=4")).edges, generate(spec("kron:9:seed=4")).edges);
  EXPECT_NE(generate(spec("rmat:10:a=0.45:b=0.15:c=0.15")).edges, generate(spec("kron:10")).edges);
}

TEST(Rmat, ProbabilitiesPlaceTheEdges) {
  // All in the top-left quadrant: every edge joins the all-zero id (renamed by the scramble) to itself.
  const EdgeList corner = generate(spec("rmat:8:a=1:b=0:c=0"));
  for (const Edge& e : corner.edges) ASSERT_EQ(e, corner.edges[0]);
  EXPECT_EQ(corner.edges[0].src, corner.edges[0].dst);
  // Only B: every source bit 0, every target bit 1: all edges join two fixed ids.
  const EdgeList b_only = generate(spec("rmat:8:a=0:b=1:c=0"));
  for (const Edge& e : b_only.edges) ASSERT_EQ(e, b_only.edges[0]);
  EXPECT_NE(b_only.edges[0].src, b_only.edges[0].dst);
  // A=0.45, D=0.25: the hub is an endpoint with probability (A+B)^S, loops come with (A+D)^S.
  const double a = 0.45, b = 0.15, c = 0.15, d = 1 - a - b - c;
  const EdgeList list = generate(spec("rmat:14:a=0.45:b=0.15:c=0.15"));
  std::vector<std::uint64_t> out(list.num_vertices, 0);
  std::uint64_t loops = 0;
  for (const Edge& e : list.edges) {
    ++out[e.src];
    loops += e.src == e.dst;
  }
  const double m = list.edges.size();
  const double hub = *std::max_element(out.begin(), out.end());
  EXPECT_NEAR(hub, m * std::pow(a + b, 14), 0.25 * m * std::pow(a + b, 14));  // about 205 +- 14
  EXPECT_NEAR(loops, m * std::pow(a + d, 14), 0.1 * m * std::pow(a + d, 14));
}

TEST(Rmat, SpecsRoundTripAndRangesAreSlices) {
  const GeneratorOptions options = spec("rmat:12:ef=4:a=0.5:b=0.2:c=0.1:seed=9");
  EXPECT_EQ(options.kind, Generator::kronecker);
  EXPECT_DOUBLE_EQ(options.a, 0.5);
  EXPECT_DOUBLE_EQ(options.c, 0.1);
  EXPECT_EQ(generator_spec(options), "rmat:12:ef=4:a=0.5:b=0.2:c=0.1:seed=9");
  EXPECT_EQ(generator_spec(spec("rmat:12")), "kron:12");
  const EdgeList whole = generate(options);
  const EdgeList middle = generate_range(options, 1000, 9000);
  EXPECT_EQ(middle.edges, std::vector<Edge>(whole.edges.begin() + 1000, whole.edges.begin() + 9000));
  GeneratorOptions threaded = options;
  threaded.threads = 3;
  EXPECT_EQ(generate(threaded).edges, whole.edges);
}

TEST(Rmat, ImpossibleProbabilitiesAreRefused) {
  for (const char* text : {"rmat:10:a=0.6:b=0.3:c=0.2", "rmat:10:a=-0.1", "rmat:10:a=1.5", "rmat:10:b=x",
                           "rmat:10:a=nan", "kron:10:a=0.5", "rmat:10:d=0.1"}) {
    GeneratorOptions options;
    try {
      parse_generator_spec(text, options);
      ADD_FAILURE() << text << " was accepted";
    } catch (const courier::InputError& e) {
      EXPECT_NE(std::string(e.what()).find(text), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("rmat:SCALE"), std::string::npos) << e.what();
    }
  }
  GeneratorOptions direct;
  direct.a = 0.9;
  direct.b = 0.2;
  EXPECT_THROW(generate(direct), courier::InputError);
}

}  // namespace

}  // namespace generate_rmat_test
