#pragma once
// Line-by-line and token-by-token scanning of a mapped text file. Lines end at '\n'; '\r' counts as
// whitespace, so CRLF files need nothing special; the last line may lack its '\n'.
#include <algorithm>
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

// Where the first line that starts at or after byte `at` begins (text.size() if none does): cutting
// a text at these points gives every line to the range that holds its first byte.
inline std::size_t line_start_at_or_after(std::string_view text, std::size_t at) {
  if (at == 0 || at >= text.size()) return std::min(at, text.size());
  if (text[at - 1] == '\n') return at;
  const std::size_t newline = text.find('\n', at);
  return newline == std::string_view::npos ? text.size() : newline + 1;
}

// Part `part` of `parts` of the lines in text[data_begin, end): [first, last) cut by bytes, each
// line in the part that holds its first byte.
struct LineRange {
  std::size_t first = 0;
  std::size_t last = 0;
};
inline LineRange part_of_lines(std::string_view text, std::size_t data_begin, std::uint64_t part, std::uint64_t parts) {
  const std::size_t data = text.size() - data_begin;
  return {line_start_at_or_after(text, data_begin + data * part / parts),
          line_start_at_or_after(text, data_begin + data * (part + 1) / parts)};
}

// The byte where 1-based line `line` of `text` starts.
inline std::size_t byte_of_line(std::string_view text, std::uint64_t line) {
  std::size_t at = 0;
  for (std::uint64_t l = 1; l < line && at < text.size(); ++l) {
    const std::size_t newline = text.find('\n', at);
    at = newline == std::string_view::npos ? text.size() : newline + 1;
  }
  return at;
}

// The number of lines before byte `offset`: the line number a part of a file starts after. Counted
// when first asked for, which is only when an error needs it (it reads the text up to `offset`).
class LinesBefore {
 public:
  LinesBefore(std::string_view text, std::size_t offset) : text_(text.substr(0, offset)) {}
  std::uint64_t operator()() const {
    if (!counted_) {
      lines_ = static_cast<std::uint64_t>(std::count(text_.begin(), text_.end(), '\n'));
      counted_ = true;
    }
    return lines_;
  }

 private:
  std::string_view text_;
  mutable bool counted_ = false;
  mutable std::uint64_t lines_ = 0;
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
