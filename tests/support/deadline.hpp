#pragma once
// Runs work on a thread of its own and waits at most `seconds` for it: a hang (ranks left waiting
// for each other) ends the test program with a message at once, rather than at CTest's timeout.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <future>
#include <thread>

namespace courier::test_support {

inline void within_seconds(int seconds, const std::function<void()>& work, const char* what = "the ranks") {
  std::packaged_task<void()> task(work);
  std::future<void> done = task.get_future();
  std::thread runner(std::move(task));
  if (done.wait_for(std::chrono::seconds(seconds)) == std::future_status::timeout) {
    std::fprintf(stderr, "HANG: %s did not finish within %d s\n", what, seconds);
    std::fflush(stderr);
    std::_Exit(3);  // the runner's threads still wait: they cannot be joined
  }
  runner.join();
  done.get();
}

}  // namespace courier::test_support
