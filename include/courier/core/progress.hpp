#pragma once
// Progress: a "label: 42%" line on stderr for long reads and writes, redrawn as the percentage
// grows. Silent unless stderr is a terminal and the work is large enough to be worth watching,
// so logs and test output stay clean. add() may be called from several threads.
#include <atomic>
#include <cstdint>
#include <string>

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

}  // namespace courier
