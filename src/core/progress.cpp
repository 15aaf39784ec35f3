#include "courier/core/progress.hpp"

#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <string>

namespace courier {
namespace {

std::atomic<ProgressMode> mode{ProgressMode::automatic};
std::atomic<std::chrono::milliseconds::rep> log_period_ms{5000};
thread_local bool speaker = true;

// Where this thread's progress goes (null: nowhere), and whether it redraws one line.
std::FILE* stream(bool& redraw) {
  redraw = ::isatty(2) != 0;
  if (!speaker) return nullptr;
  switch (mode.load(std::memory_order_relaxed)) {
    case ProgressMode::never:
      return nullptr;
    case ProgressMode::always:
      return stderr;
    case ProgressMode::automatic:
      break;
  }
  return redraw ? stderr : nullptr;
}

// 310 MB/s, 12.4 M edges/s.
std::string rate(double per_second, const std::string& unit) {
  static constexpr const char* prefixes[] = {"", "k", "M", "G", "T"};
  int prefix = 0;
  while (per_second >= 1000 && prefix < 4) {
    per_second /= 1000;
    ++prefix;
  }
  const char* space = unit == "B" ? "" : " ";
  char text[64];
  std::snprintf(text, sizeof text, "%.3g %s%s%s/s", per_second, prefixes[prefix], space, unit.c_str());
  return text;
}

std::string time_left(double seconds) {
  char text[32];
  if (seconds < 90)
    std::snprintf(text, sizeof text, "%.0f s left", std::ceil(seconds));
  else if (seconds < 5400)
    std::snprintf(text, sizeof text, "%.0f min left", std::ceil(seconds / 60));
  else
    std::snprintf(text, sizeof text, "%.1f h left", seconds / 3600);
  return text;
}

}  // namespace

void set_progress_mode(ProgressMode m) { mode.store(m, std::memory_order_relaxed); }
ProgressMode progress_mode() { return mode.load(std::memory_order_relaxed); }
void set_progress_log_period(std::chrono::milliseconds period) {
  log_period_ms.store(period.count(), std::memory_order_relaxed);
}
std::chrono::milliseconds progress_log_period() {
  return std::chrono::milliseconds(log_period_ms.load(std::memory_order_relaxed));
}

ProgressSpeaker::ProgressSpeaker(bool speaks) : previous_(speaker) { speaker = speaks; }
ProgressSpeaker::~ProgressSpeaker() { speaker = previous_; }

Progress::Progress(std::string label, std::uint64_t total, std::uint64_t min_total, std::string unit, std::FILE* out)
    : label_(std::move(label)),
      total_(total),
      unit_(std::move(unit)),
      out_(nullptr),
      redraw_(false),
      start_(std::chrono::steady_clock::now()) {
  // Small work stays quiet, unless progress was asked for (--progress).
  if (total == 0 || (total < min_total && mode.load(std::memory_order_relaxed) != ProgressMode::always)) return;
  out_ = out != nullptr ? out : stream(redraw_);
}

Progress::~Progress() {
  if (out_ != nullptr && redraw_ && shown_percent_.load() >= 0)
    std::fprintf(out_, "\r%s: done\033[K\n", label_.c_str());
}

void Progress::add(std::uint64_t amount) {
  const std::uint64_t done = done_.fetch_add(amount, std::memory_order_relaxed) + amount;
  if (out_ == nullptr) return;
  int percent = static_cast<int>(done >= total_ ? 100 : done * 100 / total_);
  if (!redraw_) {  // in a log: a line per tenth
    percent -= percent % 10;
    if (percent == 0) return;
  }
  int shown = shown_percent_.load(std::memory_order_relaxed);
  // Only the thread that moves the percentage forward draws, so lines never interleave.
  while (percent > shown) {
    if (shown_percent_.compare_exchange_weak(shown, percent)) {
      draw(percent, done);
      break;
    }
  }
}

void Progress::draw(int percent, std::uint64_t done) {
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  std::string detail;
  if (seconds > 0.2 && done > 0 && percent < 100) {  // a rate from the first instants is noise
    const double per_second = static_cast<double>(done) / seconds;
    detail = ", " + rate(per_second, unit_) + ", " + time_left(static_cast<double>(total_ - done) / per_second);
  }
  if (redraw_)
    std::fprintf(out_, "\r%s: %3d%%%s\033[K", label_.c_str(), percent, detail.c_str());
  else
    std::fprintf(out_, "%s: %d%%%s\n", label_.c_str(), percent, detail.c_str());
  std::fflush(out_);
}

ProgressLine::ProgressLine(std::string label, std::chrono::milliseconds period, std::FILE* out)
    : label_(std::move(label)), period_(period), out_(nullptr), redraw_(true) {
  out_ = out != nullptr ? out : stream(redraw_);
  if (out != nullptr) redraw_ = true;
  if (!redraw_) period_ = progress_log_period();
  next_ = std::chrono::steady_clock::now() + period_;
}

ProgressLine::~ProgressLine() {
  if (shown_ && redraw_) std::fprintf(out_, "\n");
}

void ProgressLine::show(std::string_view what) {
  if (out_ == nullptr) return;
  if (redraw_)  // \033[K clears what a longer line before it left
    std::fprintf(out_, "\r%s: %.*s\033[K", label_.c_str(), static_cast<int>(what.size()), what.data());
  else
    std::fprintf(out_, "%s: %.*s\n", label_.c_str(), static_cast<int>(what.size()), what.data());
  std::fflush(out_);
  shown_ = true;
  next_ = std::chrono::steady_clock::now() + period_;
}

}  // namespace courier
