// courierc's command line, run in process on a shipped program written to a file, as a user would
// run it: what it prints, writes and returns.
#include "courierc.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "courier/dsl/shipped_programs.hpp"

namespace fs = std::filesystem;

namespace courier::dsl {
namespace courierc_test {

struct Outcome {
  int status = -1;
  std::string out;
  std::string err;
};

Outcome courierc(std::vector<std::string> arguments) {
  arguments.insert(arguments.begin(), "courierc");
  std::vector<const char*> argv;
  for (const std::string& a : arguments) argv.push_back(a.c_str());
  std::ostringstream out;
  std::ostringstream err;
  Outcome run;
  run.status = courierc::main(static_cast<int>(argv.size()), argv.data(), out, err);
  run.out = out.str();
  run.err = err.str();
  return run;
}

fs::path scratch() {
  const fs::path dir = fs::path(COURIER_TEST_TMPDIR) / "dsl_courierc";
  fs::create_directories(dir);
  return dir;
}

// The shipped program `name` as a file, as users have it.
std::string program_file(std::string_view name) {
  const fs::path path = scratch() / (std::string(name) + ".sp");
  std::ofstream(path) << find_shipped_program(name)->source;
  return path.string();
}

std::string write_file(std::string_view name, std::string_view text) {
  const fs::path path = scratch() / name;
  std::ofstream(path) << text;
  return path.string();
}

std::string first_lines(const std::string& text, int n) {
  std::size_t end = 0;
  for (int i = 0; i < n && end != std::string::npos; ++i) end = text.find('\n', end + (i > 0 ? 1 : 0));
  return text.substr(0, end == std::string::npos ? end : end + 1);
}

TEST(Courierc, EmitsTokens) {
  const Outcome run = courierc({program_file("sssp"), "--emit", "tokens"});
  EXPECT_EQ(run.status, 0) << run.err;
  EXPECT_EQ(first_lines(run.out, 4),
            "4:1 keyword function\n4:10 identifier sssp\n4:14 operator (\n4:15 keyword Graph\n");
  EXPECT_NE(run.out.find("16:9 operator <\n16:10 identifier nbr\n"), std::string::npos);
  EXPECT_TRUE(run.out.ends_with("\n23:1 end <end>\n")) << run.out;
  EXPECT_EQ(run.err, "");
}

TEST(Courierc, EmitsTheAst) {
  const Outcome run = courierc({program_file("sssp"), "--emit", "ast"});
  EXPECT_EQ(run.status, 0) << run.err;
  EXPECT_EQ(first_lines(run.out, 2),
            "Function sssp(Graph g, propNode<int> dist, propEdge<int> weight, node src)  @4:1\n"
            "  Declaration propNode<bool> modified  @5:3\n");
  EXPECT_NE(run.out.find("        Reduction nbr.dist Min v.dist + e.weight, then nbr.modified_next = True [property]  "
                         "@16:9\n"),
            std::string::npos);
}

TEST(Courierc, EmitsTheAnalysis) {
  const std::string path = program_file("sssp");
  const Outcome run = courierc({path, "--emit", "analysis"});
  EXPECT_EQ(run.status, 0) << run.err;
  EXPECT_EQ(first_lines(run.out, 3), "Function sssp (" + path +
                                         ":4:1)\n"
                                         "Reduction-exclusive statements (Definition 1, Lemma 1):\n"
                                         "  13:5 forall (v in g.nodes()): Definition 1: it reaches one reduction (at "
                                         "16:9), and what that reduces (dist, modified_next) is accessed nowhere else "
                                         "in it\n");
  EXPECT_NE(run.out.find("  propEdge<int> weight: safe: not updated in any reduction-exclusive statement; its reads in "
                         "them (at 16:67) may be cached until the pulse ends\n"),
            std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("Pulses (Definition 3):\n  13:5 forall (v in g.nodes()), repeated by the fixedPoint until "
                         "(finished : !modified) at 12:3: aggregated (reduction-exclusive): one bulk reduction at its "
                         "end of dist, modified_next (from 16:9)\n"),
            std::string::npos)
      << run.out;
}

TEST(Courierc, WritesToOut) {
  const fs::path out = scratch() / "tc.ast";
  fs::remove(out);
  const Outcome run = courierc({program_file("tc"), "--emit", "ast", "-o", out.string()});
  EXPECT_EQ(run.status, 0) << run.err;
  EXPECT_EQ(run.out, "");
  std::ifstream in(out);
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_EQ(first_lines(text.str(), 1), "Function tc(Graph g, propNode<long> corners) -> long  @4:1\n");
}

std::string read_file(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(Courierc, GeneratesASourceAndAHeader) {
  const std::string path = program_file("bfs");
  const fs::path source = scratch() / "bfs.cpp", header = scratch() / "bfs.hpp";
  fs::remove(source);
  fs::remove(header);
  const Outcome run = courierc({path, "-o", source.string(), "--header", header.string(), "--namespace", "mine"});
  EXPECT_EQ(run.status, 0) << run.err;
  EXPECT_EQ(run.out, "");
  const std::string cpp = read_file(source);
  EXPECT_NE(cpp.find("#include \"bfs.hpp\"\n"), std::string::npos) << cpp;
  EXPECT_NE(cpp.find("namespace mine {"), std::string::npos) << cpp;
  EXPECT_NE(cpp.find("void bfs(rt::Graph& g, rt::NodeProperty<std::int32_t>& level, rt::node root) {"),
            std::string::npos)
      << cpp;
  EXPECT_NE(cpp.find("#line 15 \"" + path + "\"\n"), std::string::npos) << cpp;
  const std::string hpp = read_file(header);
  EXPECT_NE(hpp.find("inline constexpr rt::Needs bfs_needs{.out_edges = true, .in_edges = false, .split_pulls = false, "
                     ".bottom_up = true};"),
            std::string::npos)
      << hpp;
  EXPECT_NE(hpp.find("namespace naive {"), std::string::npos) << hpp;
}

TEST(Courierc, GeneratesTheNaiveGenerationToTheStandardOutput) {
  const Outcome run = courierc({program_file("sssp"), "--naive", "--line-file", "sssp.sp"});
  EXPECT_EQ(run.status, 0) << run.err;
  EXPECT_NE(run.out.find("namespace courier::dsl::programs::naive {"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("g.find_out_edge(v, nbr)"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("#line 16 \"sssp.sp\"\n"), std::string::npos) << run.out;
}

TEST(Courierc, ReportsWhatItCannotDistribute) {
  const std::string path = write_file("remote_write.sp",
                                      "function f(Graph g, propNode<int> p) {\n  forall (v in g.nodes()) {\n"
                                      "    forall (n in g.neighbors(v)) {\n      n.p = 1;\n    }\n  }\n}\n");
  const fs::path source = scratch() / "remote_write.cpp";
  fs::remove(source);
  const Outcome run = courierc({path, "-o", source.string()});
  EXPECT_EQ(run.status, 1);
  EXPECT_EQ(run.err, path +
                         ":4:7: error: expected an assignment to a property of the vertex loop's node, found one to "
                         "n.p (a node another rank may own): update it with a reduction (Min, Max, +=, ...)\n");
  EXPECT_FALSE(fs::exists(source));
}

TEST(Courierc, ReportsWhereAProgramIsWrong) {
  const std::string path =
      write_file("bad.sp", "function f(Graph g) {\n  forall (v in g.nodes()) {\n    v.x = 1;\n  }\n}\n");
  const Outcome run = courierc({path, "--emit", "ast"});
  EXPECT_EQ(run.status, 1);
  EXPECT_EQ(run.err, path + ":3:7: error: expected a declared property after 'v.', found undeclared 'x'\n");
  EXPECT_EQ(run.out, "");
}

TEST(Courierc, ReportsAMissingProgram) {
  const std::string path = (scratch() / "missing.sp").string();
  const Outcome run = courierc({path, "--emit", "tokens"});
  EXPECT_EQ(run.status, 1);
  EXPECT_EQ(run.err, "courierc: error: " + path + ": cannot open the program (does it exist, and may we read it?)\n");
}

TEST(Courierc, RefusesAnUnknownStage) {
  const Outcome run = courierc({program_file("cc"), "--emit", "llvm"});
  EXPECT_NE(run.status, 0);
  EXPECT_NE(run.err.find("--emit"), std::string::npos) << run.err;
  EXPECT_EQ(run.out, "");
}

}  // namespace courierc_test
}  // namespace courier::dsl
