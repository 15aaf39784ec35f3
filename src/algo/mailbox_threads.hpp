#pragma once
// on_threads: runs body(t) for t = 0..T-1, t = 0 on the calling thread (the rank's own) and the
// others on threads of their own, and returns once all are done. A body that throws abandons its
// thread of `box` (Mailbox::Thread::abandon), so that the others do not wait for it in the
// mailbox forever; the first exception is rethrown here, after every thread has ended. The
// mailbox applications' compute threads (Config::threads).
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace courier::algo::detail {

template <class Box, class Body>
void on_threads(Box& box, Body&& body) {
  const unsigned threads = box.threads();
  std::exception_ptr first;
  std::mutex mutex;
  const auto guarded = [&](unsigned t) {
    try {
      body(t);
    } catch (...) {
      box.thread(t).abandon();
      const std::lock_guard<std::mutex> lock(mutex);
      if (!first) first = std::current_exception();
    }
  };
  {
    std::vector<std::jthread> others;
    for (unsigned t = 1; t < threads; ++t) others.emplace_back(guarded, t);
    guarded(0);
  }  // joined
  if (first) std::rethrow_exception(first);
}

}  // namespace courier::algo::detail
