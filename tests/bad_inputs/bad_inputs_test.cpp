// The table of bad inputs (cases.tsv): every malformed file and wrong option, run as a user runs
// it, must exit with its code and its words, leave nothing in the folder it ran in, and neither
// crash nor hang. `--gtest_also_run_disabled_tests` is not needed: under mpirun the cases marked
// `mpi` run from the test registered with the mpi label (COURIER_BAD_INPUTS_LAUNCHER).
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

struct Case {
  int line = 0;
  std::string launcher, words, arguments;
  int exit = 0;
};

std::vector<Case> read_cases() {
  std::ifstream in(COURIER_BAD_INPUTS_DIR "/cases.tsv");
  std::vector<Case> cases;
  std::string text;
  for (int line = 1; std::getline(in, text); ++line) {
    if (text.empty() || text[0] == '#') continue;
    std::istringstream fields(text);
    Case c;
    c.line = line;
    std::string exit;
    if (!std::getline(fields, c.launcher, '\t') || !std::getline(fields, exit, '\t') ||
        !std::getline(fields, c.words, '\t') || !std::getline(fields, c.arguments))
      ADD_FAILURE() << "cases.tsv:" << line << ": expected four tab-separated fields";
    c.exit = std::atoi(exit.c_str());
    cases.push_back(c);
  }
  return cases;
}

std::string substituted(std::string text) {
  for (const auto& [key, value] : {std::pair<std::string, std::string>{"{files}", COURIER_BAD_INPUTS_DIR "/files"},
                                   {"{shared}", COURIER_SHARED_DATA}})
    for (std::size_t at; (at = text.find(key)) != std::string::npos;) text.replace(at, key.size(), value);
  return text;
}

struct Outcome {
  bool exited = false;
  int status = -1;
  std::string output;
};

Outcome run(const std::string& command) {
  Outcome outcome;
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  if (pipe == nullptr) return outcome;
  char chunk[4096];
  for (std::size_t n; (n = fread(chunk, 1, sizeof chunk, pipe)) > 0;) outcome.output.append(chunk, n);
  const int raw = pclose(pipe);
  outcome.exited = WIFEXITED(raw);
  outcome.status = outcome.exited ? WEXITSTATUS(raw) : -1;
  return outcome;
}

void walk(const std::string& launcher, const std::string& prefix) {
  const fs::path dir = fs::path(COURIER_TEST_TMPDIR) / ("bad_inputs_" + launcher);
  int walked = 0;
  for (const Case& c : read_cases()) {
    if (c.launcher != launcher) continue;
    ++walked;
    fs::remove_all(dir);
    fs::create_directories(dir);
    const std::string arguments = substituted(c.arguments);
    // `timeout`: a hang is a failure (124), not a stuck suite.
    const Outcome outcome =
        run("cd " + dir.string() + " && timeout 60 " + prefix + " " + COURIER_BINARY + " " + arguments);
    const std::string where = "cases.tsv:" + std::to_string(c.line) + ": courier " + arguments;
    EXPECT_TRUE(outcome.exited) << where << ": killed by a signal\n" << outcome.output;
    EXPECT_EQ(outcome.status, c.exit) << where << "\n" << outcome.output;
    EXPECT_NE(outcome.output.find(c.words), std::string::npos)
        << where << ": expected the words '" << c.words << "' in\n"
        << outcome.output;
    for (const fs::directory_entry& left : fs::directory_iterator(dir))
      ADD_FAILURE() << where << ": left " << left.path().filename();
  }
  EXPECT_GT(walked, 0) << "no case for launcher " << launcher;
}

TEST(BadInputs, TheTableHasAtLeastSixtyCases) { EXPECT_GE(read_cases().size(), 60u); }

TEST(BadInputs, EveryCaseWithoutALauncherFailsAsTheTableSays) { walk("none", ""); }

#ifdef COURIER_MPIRUN
TEST(BadInputs, EveryCaseUnderMpirunFailsAsTheTableSays) { walk("mpi", COURIER_MPIRUN); }
#endif

}  // namespace
