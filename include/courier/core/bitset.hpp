#pragma once
// Bitset: a fixed-size set of small integers that many threads may add to at once (set is an
// atomic fetch_or), as the compute threads of a round mark the labels they updated.
#include <atomic>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <memory>

namespace courier {

class Bitset {
 public:
  Bitset() = default;
  explicit Bitset(std::size_t size) { resize(size); }

  void resize(std::size_t size) {
    size_ = size;
    words_ = std::make_unique<std::atomic<std::uint64_t>[]>(word_count());
    clear();
  }
  std::size_t size() const { return size_; }

  // Thread-safe; returns whether the bit was clear before.
  bool set(std::size_t i) {
    const std::uint64_t bit = std::uint64_t{1} << (i % 64);
    return (words_[i / 64].fetch_or(bit, std::memory_order_relaxed) & bit) == 0;
  }
  bool test(std::size_t i) const {
    return (words_[i / 64].load(std::memory_order_relaxed) >> (i % 64)) & 1;
  }
  void reset(std::size_t i) {
    words_[i / 64].fetch_and(~(std::uint64_t{1} << (i % 64)), std::memory_order_relaxed);
  }
  void clear() {
    for (std::size_t w = 0; w < word_count(); ++w) words_[w].store(0, std::memory_order_relaxed);
  }
  std::size_t count() const {
    std::size_t total = 0;
    for (std::size_t w = 0; w < word_count(); ++w) total += std::popcount(words_[w].load(std::memory_order_relaxed));
    return total;
  }
  bool any() const {
    for (std::size_t w = 0; w < word_count(); ++w)
      if (words_[w].load(std::memory_order_relaxed) != 0) return true;
    return false;
  }
  // Calls fn(i) for every set i in [begin, end), in order.
  template <class Fn>
  void for_each(std::size_t begin, std::size_t end, Fn&& fn) const {
    for (std::size_t i = begin; i < end;) {
      std::uint64_t word = words_[i / 64].load(std::memory_order_relaxed) >> (i % 64);
      if (word == 0) {
        i = (i / 64 + 1) * 64;
        continue;
      }
      i += static_cast<std::size_t>(std::countr_zero(word));
      if (i < end) fn(i);
      ++i;
    }
  }

 private:
  std::size_t word_count() const { return (size_ + 63) / 64; }

  std::size_t size_ = 0;
  std::unique_ptr<std::atomic<std::uint64_t>[]> words_;
};

}  // namespace courier
