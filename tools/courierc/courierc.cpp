#include "courierc.hpp"

#include <CLI/CLI.hpp>
#include <exception>
#include <string>

#include "courier/core/atomic_file.hpp"
#include "courier/dsl/analysis.hpp"
#include "courier/dsl/ast_dump.hpp"
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

}  // namespace

int main(int argc, const char* const* argv, std::ostream& out, std::ostream& err) {
  CLI::App app{
      "courierc: compiles a graph program written in StarPlat's language.\n\n"
      "Examples:\n  courierc dsl/programs/sssp.sp --emit ast\n"
      "  courierc dsl/programs/sssp.sp --emit analysis\n"
      "  courierc dsl/programs/sssp.sp --emit tokens -o sssp.tokens\n",
      "courierc"};
  std::string program;
  std::string output;
  std::string stage;
  app.add_option("PROGRAM", program, "the program (a .sp file)")->required()->type_name("FILE");
  app.add_option("-o,--output", output, "write to OUT instead of the standard output")->type_name("OUT");
  app.add_option("--emit", stage, "show a stage of the compiler instead of generating code")
      ->check(CLI::IsMember({"tokens", "ast", "analysis"}));
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e, out, err);
  }

  if (stage.empty()) {
    err << "courierc: error: code generation is not built yet; --emit tokens, ast or analysis shows what the "
           "front end makes of "
        << program << "\n";
    return 2;
  }
  try {
    const std::string text = emit(stage, program);
    if (output.empty()) {
      out << text;
    } else {
      AtomicFile file(output);
      file.write(text);
      file.commit();
    }
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
