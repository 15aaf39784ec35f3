#pragma once
// parallel_for: split [0, n) into contiguous chunks, one per thread, and run fn(begin, end,
// thread_index) on each. Chunk t is the same for a given (n, threads) wherever it is asked for
// (chunk_of), so a two-pass algorithm (count, then fill) can meet its own chunks again.
#include <algorithm>
#include <cstdint>
#include <exception>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

namespace courier {

// std::thread::hardware_concurrency(), or 1 when the platform does not know.
unsigned default_thread_count();

struct IndexRange {
  std::uint64_t begin = 0;
  std::uint64_t end = 0;
};

// Chunk `index` of [0, n) split into `parts` contiguous pieces whose sizes differ by at most one.
inline IndexRange chunk_of(std::uint64_t n, unsigned parts, unsigned index) {
  const std::uint64_t base = n / parts, extra = n % parts;
  const std::uint64_t begin = index * base + std::min<std::uint64_t>(index, extra);
  return {begin, begin + base + (index < extra ? 1 : 0)};
}

// The number of chunks parallel_for uses: `threads` (0 means default_thread_count()), but never
// more than n, and at least 1.
inline unsigned parallel_parts(std::uint64_t n, unsigned threads) {
  if (threads == 0) threads = default_thread_count();
  return static_cast<unsigned>(std::max<std::uint64_t>(1, std::min<std::uint64_t>(threads, n)));
}

// A thread count for n items of cheap work: no more threads than chunks of `min_per_thread` items,
// so small inputs do not pay for starting threads.
inline unsigned threads_for(std::uint64_t n, std::uint64_t min_per_thread = std::uint64_t{1} << 16) {
  return static_cast<unsigned>(
      std::max<std::uint64_t>(1, std::min<std::uint64_t>(default_thread_count(), n / min_per_thread)));
}

// Runs fn(begin, end, thread_index) for every chunk of [0, n), thread_index in
// [0, parallel_parts(n, threads)); the calling thread takes chunk 0. Nothing runs when n == 0.
// The first exception a chunk throws is rethrown here once every thread has finished.
template <class Fn>
void parallel_for(std::uint64_t n, unsigned threads, Fn&& fn) {
  if (n == 0) return;
  const unsigned parts = parallel_parts(n, threads);
  if (parts == 1) {
    fn(std::uint64_t{0}, n, 0u);
    return;
  }
  std::vector<std::exception_ptr> errors(parts);
  auto run = [&](unsigned t) {
    try {
      const IndexRange r = chunk_of(n, parts, t);
      fn(r.begin, r.end, t);
    } catch (...) {
      errors[t] = std::current_exception();
    }
  };
  std::vector<std::thread> workers;
  workers.reserve(parts - 1);
  unsigned started = 1;
  try {
    for (; started < parts; ++started) workers.emplace_back(run, started);
  } catch (const std::system_error&) {
    // No more threads to be had: the calling thread runs the chunks nobody took.
  }
  run(0);
  for (unsigned t = started; t < parts; ++t) run(t);
  for (auto& w : workers) w.join();
  for (auto& e : errors)
    if (e) std::rethrow_exception(e);
}

template <class Fn>
void parallel_for(std::uint64_t n, Fn&& fn) {
  parallel_for(n, 0u, std::forward<Fn>(fn));
}

}  // namespace courier
