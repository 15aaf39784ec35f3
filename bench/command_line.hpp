#pragma once
// The benchmarks' command lines: CLI11 behind a small interface, compiled once (bench/command_line.cpp)
// instead of in every benchmark, where its header-only code cost 13 s of g++ -O3 a program.
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

namespace CLI {
class App;
class Option;
}  // namespace CLI

namespace courier::bench {

class CommandLine {
 public:
  // One option as it is declared; each call returns it for the next.
  class Option {
   public:
    explicit Option(CLI::Option* option) : option_(option) {}
    template <class Number>
    Option& range(Number low, Number high) {
      if constexpr (std::is_integral_v<Number>)
        return integers_in(static_cast<long long>(low), static_cast<long long>(high));
      else
        return reals_in(static_cast<double>(low), static_cast<double>(high));
    }
    Option& choices(std::vector<std::string> allowed);
    Option& delimiter(char separator);  // a list option split at `separator`
    Option& required();
    Option& show_default();  // --help shows the value it had when declared

   private:
    Option& integers_in(long long low, long long high);
    Option& reals_in(double low, double high);
    CLI::Option* option_;
  };

  explicit CommandLine(const std::string& description);
  ~CommandLine();
  CommandLine(const CommandLine&) = delete;
  CommandLine& operator=(const CommandLine&) = delete;

  // `--name VALUE` into `value`: T is one of the kinds bench/command_line.cpp instantiates.
  template <class T>
  Option add(const std::string& name, T& value, const std::string& help);
  // `--name` sets `value`; `!--name` clears it.
  Option flag(const std::string& name, bool& value, const std::string& help);

  // Reads the command line. Returns the exit status to leave with when the program should not go
  // on (--help was asked for, or an option was wrong: both printed), nothing otherwise.
  std::optional<int> parse(int argc, char** argv);

 private:
  std::unique_ptr<CLI::App> app_;
};

}  // namespace courier::bench
