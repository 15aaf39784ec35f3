#pragma once
// ThreadTeam: a persistent team of threads that runs one function on every member and waits for
// all of them, round after round, without creating threads each time. The calling thread is
// member 0. Idle members sleep on an atomic wait, so an oversubscribed machine loses nothing.
// Given one PU per member (see placement.hpp), member i runs bound to pus[i]; the calling thread
// is bound for the team's lifetime and gets its old binding back when the team goes. Each member
// counts the bitset words it scans into its own slot (scan_count.hpp); scanned_words() sums them.
#include <atomic>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "courier/core/placement.hpp"
#include "courier/core/scan_count.hpp"

namespace courier {

class ThreadTeam {
 public:
  // `size` members in all (at least 1), the caller included.
  explicit ThreadTeam(unsigned size);
  // Pins member i to pus[i] when pus has one PU per member; otherwise pins nothing.
  ThreadTeam(unsigned size, std::vector<unsigned> pus);
  ~ThreadTeam();
  ThreadTeam(const ThreadTeam&) = delete;
  ThreadTeam& operator=(const ThreadTeam&) = delete;

  unsigned size() const { return static_cast<unsigned>(workers_.size()) + 1; }
  // The PU of every member, or empty when the team is not pinned.
  const std::vector<unsigned>& pus() const { return pus_; }
  // Bitset words the members have scanned since the team began (read between runs for an exact sum).
  std::uint64_t scanned_words() const;

  // Runs fn(member) on every member and returns when all have finished. An exception thrown by
  // any member is rethrown here (the first one).
  void run(const std::function<void(unsigned member)>& fn);

  // Splits [0, n) into contiguous chunks, one per member: fn(begin, end, member).
  template <class Fn>
  void for_range(std::size_t n, Fn&& fn) {
    const unsigned members = size();
    run([&](unsigned member) {
      fn(n * member / members, n * (member + 1) / members, member);
    });
  }

 private:
  void work(unsigned member);
  void call(unsigned member);

  std::vector<unsigned> pus_;
  std::optional<ThreadBinding> caller_binding_;  // to restore when the team goes
  std::unique_ptr<ScanSlot[]> scan_slots_;       // one per member
  ScanSlot* caller_scan_slot_ = nullptr;         // the caller's own, to restore when the team goes
  std::vector<std::thread> workers_;
  const std::function<void(unsigned)>* job_ = nullptr;
  std::atomic<std::uint64_t> generation_{0};
  std::atomic<unsigned> remaining_{0};
  std::atomic<bool> stopping_{false};
  std::mutex error_mutex_;
  std::exception_ptr error_;
};

}  // namespace courier
