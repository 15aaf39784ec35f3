#pragma once
// Line-by-line and token-by-token scanning of a mapped text file. Lines end at '\n'; '\r' counts as
// whitespace, so CRLF files need nothing special; the last line may lack its '\n'.
#include <cstdint>
#include <cstring>
#include <string_view>

#include "courier/core/progress.hpp"

namespace courier::graph::io {

inline bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

class LineReader {
 public:
  explicit LineReader(std::string_view text, Progress* progress = nullptr)
      : next_(text.data()), end_(text.data() + text.size()), reported_(next_), progress_(progress) {}
  ~LineReader() { report(); }

  // The next line without its '\n'; false at the end of the text.
  bool next(std::string_view& line) {
    if (next_ >= end_) return false;
    const auto* newline = static_cast<const char*>(std::memchr(next_, '\n', end_ - next_));
    const char* line_end = newline ? newline : end_;
    line = {next_, static_cast<std::size_t>(line_end - next_)};
    next_ = newline ? newline + 1 : end_;
    ++line_number_;
    if (progress_ && next_ - reported_ > (4 << 20)) report();
    return true;
  }
  // 1-based number of the line last returned by next().
  std::uint64_t line_number() const { return line_number_; }

 private:
  void report() {
    if (progress_) progress_->add(static_cast<std::uint64_t>(next_ - reported_));
    reported_ = next_;
  }

  const char* next_;
  const char* end_;
  const char* reported_;
  Progress* progress_;
  std::uint64_t line_number_ = 0;
};

// The whitespace-separated tokens of one line.
class Tokens {
 public:
  explicit Tokens(std::string_view line) : p_(line.data()), end_(line.data() + line.size()) {}

  bool next(std::string_view& token) {
    while (p_ < end_ && is_blank(*p_)) ++p_;
    if (p_ == end_) return false;
    const char* start = p_;
    while (p_ < end_ && !is_blank(*p_)) ++p_;
    token = {start, static_cast<std::size_t>(p_ - start)};
    return true;
  }
  // True if nothing but whitespace is left.
  bool at_end() {
    while (p_ < end_ && is_blank(*p_)) ++p_;
    return p_ == end_;
  }

 private:
  const char* p_;
  const char* end_;
};

}  // namespace courier::graph::io
