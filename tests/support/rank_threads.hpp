#pragma once
// Runs body(r) on one thread per rank r of `ranks`, joins them all, then rethrows the first
// failure: ranks as threads of one test process.
#include <exception>
#include <functional>
#include <thread>
#include <vector>

namespace courier::test_support {

inline void on_rank_threads(int ranks, const std::function<void(int)>& body) {
  std::vector<std::exception_ptr> errors(static_cast<std::size_t>(ranks));
  std::vector<std::thread> threads;
  for (int r = 0; r < ranks; ++r)
    threads.emplace_back([&, r] {
      try {
        body(r);
      } catch (...) {
        errors[static_cast<std::size_t>(r)] = std::current_exception();
      }
    });
  for (auto& t : threads) t.join();
  for (auto& e : errors)
    if (e) std::rethrow_exception(e);
}

}  // namespace courier::test_support
