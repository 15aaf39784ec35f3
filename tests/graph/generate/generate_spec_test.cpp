#include <gtest/gtest.h>

#include "courier/core/error.hpp"
#include "courier/graph/generate.hpp"

namespace generate_spec_test {

using namespace courier::graph;

TEST(GeneratorSpec, ParsesKronAndUrand) {
  GeneratorOptions options;
  ASSERT_TRUE(parse_generator_spec("kron:16", options));
  EXPECT_EQ(options.kind, Generator::kronecker);
  EXPECT_EQ(options.scale, 16);
  EXPECT_EQ(options.edge_factor, 16);
  ASSERT_TRUE(parse_generator_spec("urand:40", options));
  EXPECT_EQ(options.kind, Generator::uniform);
  EXPECT_EQ(options.scale, 40);
  ASSERT_TRUE(parse_generator_spec("kron:1", options));
  EXPECT_EQ(options.scale, 1);
}

TEST(GeneratorSpec, OptionalEdgeFactorAndSeed) {
  GeneratorOptions options;
  options.seed = 5;
  ASSERT_TRUE(parse_generator_spec("urand:12:ef=8", options));
  EXPECT_EQ(options.edge_factor, 8);
  EXPECT_EQ(options.seed, 5u);  // fields the spec does not name stay as they were
  ASSERT_TRUE(parse_generator_spec("kron:10:seed=77:ef=4", options));
  EXPECT_EQ(options.seed, 77u);
  EXPECT_EQ(options.edge_factor, 4);
  EXPECT_EQ(generator_spec(options), "kron:10:ef=4:seed=77");
  EXPECT_EQ(generator_spec(GeneratorOptions{}), "kron:10");
}

TEST(GeneratorSpec, FileNamesAreNotSpecs) {
  GeneratorOptions options;
  options.scale = 3;
  for (const char* name : {"g.el", "data/kron:16.el", "./kron:16", "kron16", "Kron:16", "urand", "", "kronecker:5"}) {
    EXPECT_FALSE(parse_generator_spec(name, options)) << name;
  }
  EXPECT_EQ(options.scale, 3);
}

TEST(GeneratorSpec, MalformedSpecsSayTheRightForm) {
  for (const char* spec : {"kron:", "kron:abc", "kron:0", "kron:41", "urand:-3", "kron:16.el", "kron:16:",
                           "kron:16:ef=", "kron:16:ef=0", "kron:16:seed=x", "kron:16:w", "urand:1 "}) {
    GeneratorOptions options;
    try {
      parse_generator_spec(spec, options);
      ADD_FAILURE() << spec << " was accepted";
    } catch (const courier::InputError& e) {
      EXPECT_NE(std::string(e.what()).find("kron:SCALE"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find(spec), std::string::npos) << e.what();
    }
    EXPECT_EQ(options.scale, GeneratorOptions{}.scale) << "a failed parse changes nothing";
  }
}

}  // namespace generate_spec_test
