#include "command_line.hpp"

#include <CLI/CLI.hpp>
#include <utility>

namespace courier::bench {

CommandLine::Option& CommandLine::Option::integers_in(long long low, long long high) {
  option_->check(CLI::Range(low, high));
  return *this;
}

CommandLine::Option& CommandLine::Option::reals_in(double low, double high) {
  option_->check(CLI::Range(low, high));
  return *this;
}

CommandLine::Option& CommandLine::Option::choices(std::vector<std::string> allowed) {
  option_->check(CLI::IsMember(std::move(allowed)));
  return *this;
}

CommandLine::Option& CommandLine::Option::delimiter(char separator) {
  option_->delimiter(separator);
  return *this;
}

CommandLine::Option& CommandLine::Option::required() {
  option_->required();
  return *this;
}

CommandLine::Option& CommandLine::Option::show_default() {
  option_->capture_default_str();
  return *this;
}

CommandLine::CommandLine(const std::string& description) : app_(std::make_unique<CLI::App>(description)) {}
CommandLine::~CommandLine() = default;

template <class T>
CommandLine::Option CommandLine::add(const std::string& name, T& value, const std::string& help) {
  return Option(app_->add_option(name, value, help));
}

CommandLine::Option CommandLine::flag(const std::string& name, bool& value, const std::string& help) {
  return Option(app_->add_flag(name, value, help));
}

std::optional<int> CommandLine::parse(int argc, char** argv) {
  try {
    app_->parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app_->exit(e);
  }
  return std::nullopt;
}

// The kinds of value the benchmarks take (std::size_t and std::uint64_t are unsigned long here); another
// one is a link error until it is added here.
template CommandLine::Option CommandLine::add(const std::string&, int&, const std::string&);
template CommandLine::Option CommandLine::add(const std::string&, unsigned&, const std::string&);
template CommandLine::Option CommandLine::add(const std::string&, unsigned long&, const std::string&);
template CommandLine::Option CommandLine::add(const std::string&, double&, const std::string&);
template CommandLine::Option CommandLine::add(const std::string&, std::string&, const std::string&);
template CommandLine::Option CommandLine::add(const std::string&, std::vector<std::string>&, const std::string&);
template CommandLine::Option CommandLine::add(const std::string&, std::vector<int>&, const std::string&);

}  // namespace courier::bench
