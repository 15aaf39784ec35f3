#include "courier/core/progress.hpp"

#include <unistd.h>

#include <cstdio>

namespace courier {

Progress::Progress(std::string label, std::uint64_t total, std::uint64_t min_total)
    : label_(std::move(label)), total_(total), active_(total >= min_total && total > 0 && ::isatty(2)) {}

Progress::~Progress() {
  if (active_ && shown_percent_.load() >= 0) std::fprintf(stderr, "\r%s: done \n", label_.c_str());
}

void Progress::add(std::uint64_t amount) {
  const std::uint64_t done = done_.fetch_add(amount, std::memory_order_relaxed) + amount;
  if (!active_) return;
  const int percent = static_cast<int>(done >= total_ ? 100 : done * 100 / total_);
  int shown = shown_percent_.load(std::memory_order_relaxed);
  // Only the thread that moves the percentage forward redraws, so lines never interleave.
  while (percent > shown) {
    if (shown_percent_.compare_exchange_weak(shown, percent)) {
      std::fprintf(stderr, "\r%s: %3d%%", label_.c_str(), percent);
      std::fflush(stderr);
      break;
    }
  }
}

ProgressLine::ProgressLine(std::string label, std::chrono::milliseconds period, std::FILE* out)
    : label_(std::move(label)),
      period_(period),
      out_(out != nullptr ? out
           : ::isatty(2)  ? stderr
                          : nullptr),
      next_(std::chrono::steady_clock::now() + period) {}

ProgressLine::~ProgressLine() {
  if (shown_) std::fprintf(out_, "\n");
}

void ProgressLine::show(std::string_view what) {
  if (out_ == nullptr) return;
  // Padded, so a shorter line hides the end of a longer one before it.
  std::fprintf(out_, "\r%s: %-*.*s", label_.c_str(), 48, static_cast<int>(what.size()), what.data());
  std::fflush(out_);
  shown_ = true;
  next_ = std::chrono::steady_clock::now() + period_;
}

}  // namespace courier
