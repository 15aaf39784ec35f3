#include "courierc.hpp"

#include <CLI/CLI.hpp>
#include <exception>
#include <filesystem>
#include <string>

#include "courier/core/atomic_file.hpp"
#include "courier/dsl/analysis.hpp"
#include "courier/dsl/ast_dump.hpp"
#include "courier/dsl/codegen.hpp"
#include "courier/dsl/compile_error.hpp"
#include "courier/dsl/front_end.hpp"
#include "courier/dsl/lexer.hpp"

namespace courier::courierc {

namespace {

std::string emit(const std::string& stage, const std::string& path) {
  if (stage == "tokens") return dsl::format_tokens(dsl::lex(dsl::read_program(path), path));
  const dsl::Program program = dsl::front_end(std::filesystem::path(path));
  if (stage == "ast") return dsl::dump_ast(program);
  return dsl::format_analysis(program, dsl::analyse(program));
}

void write(const std::string& path, const std::string& text, std::ostream& out) {
  if (path.empty()) {
    out << text;
    return;
  }
  AtomicFile file(path);
  file.write(text);
  file.commit();
}

}  // namespace

int main(int argc, const char* const* argv, std::ostream& out, std::ostream& err) {
  CLI::App app{
      "courierc: compiles a graph program written in StarPlat's language to C++ for Courier's engine.\n\n"
      "Examples:\n  courierc dsl/programs/sssp.sp -o sssp.cpp --header sssp.hpp\n"
      "  courierc dsl/programs/sssp.sp -o sssp_naive.cpp --naive\n"
      "  courierc dsl/programs/sssp.sp --emit analysis\n"
      "  courierc dsl/programs/sssp.sp --emit tokens -o sssp.tokens\n",
      "courierc"};
  std::string program;
  std::string output;
  std::string stage;
  std::string header;
  std::string include;
  std::string name_space = dsl::CodegenOptions{}.name_space;
  std::string line_file;
  bool naive = false;
  app.add_option("PROGRAM", program, "the program (a .sp file)")->required()->type_name("FILE");
  app.add_option("-o,--output", output, "write to OUT instead of the standard output")->type_name("OUT");
  app.add_option("--emit", stage, "show a stage of the compiler instead of generating code")
      ->check(CLI::IsMember({"tokens", "ast", "analysis"}));
  app.add_flag("--naive", naive,
               "generate what StarPlat's original distributed backend does (every access through the window, "
               "reductions queued and synchronised per statement), to measure what the analyses give");
  app.add_option("--header", header, "also write the header declaring both generations' functions")->type_name("HPP");
  app.add_option("--include", include, "the header the generated source includes (default: --header's file name)")
      ->type_name("NAME");
  app.add_option("--namespace", name_space, "the namespace of the generated functions (naive ones in NS::naive)")
      ->type_name("NS")
      ->capture_default_str();
  app.add_option("--line-file", line_file, "how #line directives name the program (default: PROGRAM as given)")
      ->type_name("NAME");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e, out, err);
  }

  try {
    if (!stage.empty()) {
      write(output, emit(stage, program), out);
      return 0;
    }
    const dsl::Program parsed = dsl::front_end(std::filesystem::path(program));
    dsl::CodegenOptions options;
    options.generation = naive ? dsl::rt::Generation::naive : dsl::rt::Generation::optimised;
    options.name_space = name_space;
    options.line_file = line_file;
    options.header = !include.empty() ? include
                     : header.empty() ? std::string()
                                      : std::filesystem::path(header).filename().string();
    const std::string source = dsl::generate_source(parsed, dsl::analyse(parsed), options);
    if (!header.empty()) write(header, dsl::generate_header(parsed, options), out);
    write(output, source, out);
  } catch (const dsl::CompileError& e) {
    err << e.file() << ":" << e.location().line << ":" << e.location().column << ": error: " << e.message() << "\n";
    return 1;
  } catch (const std::exception& e) {
    err << "courierc: error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}

}  // namespace courier::courierc
