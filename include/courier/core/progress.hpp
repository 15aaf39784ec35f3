#pragma once
// Progress on stderr for long steps (reading, writing, generating, partitioning, rounds): a line
// redrawn in place on a terminal, nothing in pipes and logs unless asked (--progress), nothing at
// all when asked (--quiet). Only one rank speaks (ProgressSpeaker), so lines never interleave.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

namespace courier {

// automatic: stderr when it is a terminal; always: stderr even into a pipe or a log, a new line
// per step instead of a redrawn one; never. Process-wide, set by the command line before work.
enum class ProgressMode { automatic, always, never };
void set_progress_mode(ProgressMode mode);
ProgressMode progress_mode();

// How far apart a ProgressLine's lines are in a pipe or a log, where each is a new line (5 s by
// default: a terminal redraws its one line every period instead). Process-wide, like the mode.
void set_progress_log_period(std::chrono::milliseconds period);
std::chrono::milliseconds progress_log_period();

// While it lives, work on this thread shows progress only if `speaks` (the harness says no on the
// threads and processes of ranks other than 0). Threads start as speakers.
class ProgressSpeaker {
 public:
  explicit ProgressSpeaker(bool speaks);
  ~ProgressSpeaker();
  ProgressSpeaker(const ProgressSpeaker&) = delete;
  ProgressSpeaker& operator=(const ProgressSpeaker&) = delete;

 private:
  bool previous_;
};

// Progress: "label: 42%, 310 MB/s, 3 s left" for `total` units of work known in advance.
// Silent below `min_total` (unless the mode is `always`), so small work stays quiet. add() may be called from several
// threads; whether it shows is decided when it is made, on the thread that makes it.
class Progress {
 public:
  // `unit` names what total counts: "B" (bytes: the rate reads MB/s) or a noun ("edges").
  // `out` (tests) replaces stderr and shows as `always` would.
  Progress(std::string label, std::uint64_t total, std::uint64_t min_total = 64u << 20, std::string unit = "B",
           std::FILE* out = nullptr);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  void add(std::uint64_t amount);
  bool active() const { return out_ != nullptr; }
  std::uint64_t done() const { return done_.load(std::memory_order_relaxed); }

 private:
  void draw(int percent, std::uint64_t done);

  std::string label_;
  std::uint64_t total_;
  std::string unit_;
  std::FILE* out_;
  bool redraw_;  // on a terminal: redraw one line; else one line per 10%
  std::chrono::steady_clock::time_point start_;
  std::atomic<std::uint64_t> done_{0};
  std::atomic<int> shown_percent_{-1};
};

// ProgressLine: a "label: what" line shown at most every `period` on a terminal (every
// progress_log_period() in a log), for work whose total is not known in advance (rounds of a
// vertex program until nothing is active), so a long run shows it is alive. One thread at a time.
class ProgressLine {
 public:
  // `out` (tests) replaces stderr and redraws as on a terminal.
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
  bool redraw_;
  std::chrono::steady_clock::time_point next_;
  bool shown_ = false;
};

}  // namespace courier
