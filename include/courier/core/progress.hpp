#pragma once
// Progress: a "label: 42%" line on stderr for long reads and writes, redrawn as the percentage
// grows. Silent unless stderr is a terminal and the work is large enough to be worth watching,
// so logs and test output stay clean. add() may be called from several threads.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

namespace courier {

class Progress {
 public:
  // `total` units of work (bytes, edges); below `min_total` nothing is ever shown.
  Progress(std::string label, std::uint64_t total, std::uint64_t min_total = 64u << 20);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  void add(std::uint64_t amount);
  bool active() const { return active_; }
  std::uint64_t done() const { return done_.load(std::memory_order_relaxed); }

 private:
  std::string label_;
  std::uint64_t total_;
  bool active_;
  std::atomic<std::uint64_t> done_{0};
  std::atomic<int> shown_percent_{-1};
};

// ProgressLine: a "label: what" line redrawn at most every `period`, for work whose total is not
// known in advance (rounds of a vertex program until nothing is active), so a long run shows it is
// alive. Silent unless it writes to a terminal (stderr when `out` is null, and only if stderr is a
// terminal), so logs, pipes and tests stay clean. One thread at a time.
class ProgressLine {
 public:
  explicit ProgressLine(std::string label, std::chrono::milliseconds period = std::chrono::milliseconds(500),
                        std::FILE* out = nullptr);
  ~ProgressLine();  // ends a line it drew
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  bool active() const { return out_ != nullptr; }
  // Whether a period has passed since the last line (false when inactive): then show() one.
  bool due() const { return out_ != nullptr && std::chrono::steady_clock::now() >= next_; }
  void show(std::string_view what);

 private:
  std::string label_;
  std::chrono::milliseconds period_;
  std::FILE* out_;
  std::chrono::steady_clock::time_point next_;
  bool shown_ = false;
};

}  // namespace courier
