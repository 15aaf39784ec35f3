// The registry and resolve(): names and aliases, the engines x algorithms matrix, declared options
// with their defaults and checks, and refusals that name who takes an option.
#include "courier/harness/registry.hpp"

#include <gtest/gtest.h>

#include "courier/core/error.hpp"
#include "courier/harness/run.hpp"

namespace registry_test {

using namespace courier;
using namespace courier::harness;

namespace {

struct NoteKernel : Kernel {};

class FakeEngine final : public Engine {
 public:
  explicit FakeEngine(std::string name) : name_(std::move(name)) {}
  std::string_view name() const override { return name_; }
  std::string_view about() const override { return "a fake"; }
  std::vector<OptionSpec> options() const override {
    return {{.name = "width", .help = "w", .fallback = "4", .check = whole_number("width", 1, 8)}};
  }
  bool runs(const Algorithm& a) const override { return a.kernel<NoteKernel>(name_) != nullptr; }
  bool distributed() const override { return false; }
  EngineRun run(const Algorithm&, const RunSpec&, const Launch&) const override { return {}; }

 private:
  std::string name_;
};

Algorithm algorithm(std::string name, std::vector<std::string> aliases, bool on_fake) {
  Algorithm a;
  a.name = std::move(name);
  a.aliases = std::move(aliases);
  a.options = {{.name = "mode", .help = "m", .fallback = "fast", .choices = {"fast", "slow"}},
               {.name = "seed", .help = "s"}};
  if (on_fake) a.kernels["fake"] = std::make_shared<NoteKernel>();
  return a;
}

Registry registry() {
  Registry r;
  r.add(std::make_shared<FakeEngine>("fake"));
  r.add(std::make_shared<FakeEngine>("other"));
  r.add(algorithm("walk", {"stroll"}, true));
  r.add(algorithm("jump", {}, false));
  return r;
}

}  // namespace

TEST(Registry, FindsByNameOrAliasAndNamesTheChoicesOtherwise) {
  const Registry r = registry();
  EXPECT_EQ(r.algorithm("stroll").name, "walk");
  EXPECT_EQ(r.engine("other").name(), "other");
  try {
    r.algorithm("fly");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("walk, stroll, jump"), std::string::npos) << e.what();
  }
  EXPECT_THROW(r.engine("none"), InputError);
}

TEST(Registry, RefusesASecondUseOfANameOrAlias) {
  Registry r = registry();
  EXPECT_THROW(r.add(algorithm("stroll", {}, false)), Error);
  EXPECT_THROW(r.add(algorithm("run", {"walk"}, false)), Error);
  EXPECT_THROW(r.add(std::make_shared<FakeEngine>("fake")), Error);
}

TEST(Registry, TheMatrixSaysWhichEngineRunsWhich) {
  const std::string matrix = registry().matrix();
  EXPECT_NE(matrix.find("walk"), std::string::npos) << matrix;
  const auto jump = matrix.find("jump");
  ASSERT_NE(jump, std::string::npos);
  EXPECT_EQ(matrix.find("yes", jump), std::string::npos) << "no engine runs jump:\n" << matrix;
}

TEST(Registry, DeclaredOptionsAreListedOnceWithEveryUser) {
  const std::vector<Registry::Declared> options = registry().options();
  ASSERT_EQ(options.size(), 3u);  // width, mode, seed
  EXPECT_EQ(options[0].spec.name, "width");
  EXPECT_EQ(options[0].users, (std::vector<std::string>{"fake", "other"}));
  EXPECT_EQ(options[1].spec.name, "mode");
  EXPECT_EQ(options[1].users, (std::vector<std::string>{"walk", "jump"}));
}

TEST(Resolve, FillsDefaultsTakesTheCanonicalNameAndChecksValues) {
  const Registry r = registry();
  RunSpec spec{.algorithm = "stroll", .engine = "fake"};
  spec.options.set("width", "6");
  const RunSpec resolved = resolve(r, spec);
  EXPECT_EQ(resolved.algorithm, "walk");
  EXPECT_EQ(resolved.options.count("width"), 6u);
  EXPECT_EQ(resolved.options.text("mode"), "fast");
  EXPECT_FALSE(resolved.options.has("seed"));  // no default: stays unset
  spec.options.set("width", "9");
  EXPECT_THROW(resolve(r, spec), InputError);
  spec.options.set("width", "2");
  spec.options.set("mode", "sideways");
  EXPECT_THROW(resolve(r, spec), InputError);
}

TEST(Resolve, RefusesAnEngineThatDoesNotRunTheAlgorithmAndForeignOptions) {
  const Registry r = registry();
  try {
    resolve(r, {.algorithm = "walk", .engine = "other"});
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("the other engine does not run walk"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("use --engine fake"), std::string::npos) << e.what();
  }
  RunSpec spec{.algorithm = "walk", .engine = "fake"};
  spec.options.set("colour", "red");
  EXPECT_THROW(resolve(r, spec), InputError);
  spec = {.algorithm = "walk", .engine = "fake", .ranks = 0};
  EXPECT_THROW(resolve(r, spec), InputError);
}

TEST(Options, TypedReadsNameTheOptionInTheirErrors) {
  Options o;
  o.set("n", "-3");
  try {
    o.count("n");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("--n -3: is negative"), std::string::npos) << e.what();
  }
  o.set("x", "0.5");
  EXPECT_DOUBLE_EQ(o.real("x"), 0.5);
  o.set("f", "maybe");
  EXPECT_THROW(o.flag("f"), InputError);
  EXPECT_EQ(o.vertex("unset"), graph::kNoVertex);
  EXPECT_THROW(o.text("unset"), InputError);
}

}  // namespace registry_test
