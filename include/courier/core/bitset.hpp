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

  // Thread-safe; returns whether the bit was clear before. A plain read first skips the atomic
  // read-modify-write when the bit is already set (a vertex improved twice in a round).
  bool set(std::size_t i) {
    const std::uint64_t bit = std::uint64_t{1} << (i % 64);
    if (words_[i / 64].load(std::memory_order_relaxed) & bit) return false;
    return (words_[i / 64].fetch_or(bit, std::memory_order_relaxed) & bit) == 0;
  }
  // Sets i without an atomic read-modify-write: only while no other thread writes i's 64-bit
  // word (e.g. threads that own whole words of a range, as Engine::pull hands them out).
  void set_exclusive(std::size_t i) {
    std::atomic<std::uint64_t>& word = words_[i / 64];
    word.store(word.load(std::memory_order_relaxed) | (std::uint64_t{1} << (i % 64)), std::memory_order_relaxed);
  }
  // Adds every member of `other` (the same size), a word at a time; not thread-safe.
  void add_all(const Bitset& other) {
    for (std::size_t w = 0; w < word_count(); ++w)
      if (const std::uint64_t bits = other.words_[w].load(std::memory_order_relaxed))
        words_[w].fetch_or(bits, std::memory_order_relaxed);
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
  std::size_t count() const { return count(0, size_); }
  // Members in [begin, end), a word at a time.
  std::size_t count(std::size_t begin, std::size_t end) const {
    std::size_t total = 0;
    for (std::size_t w = begin / 64; begin < end && w <= (end - 1) / 64; ++w) {
      std::uint64_t word = words_[w].load(std::memory_order_relaxed);
      if (w == begin / 64) word &= ~std::uint64_t{0} << (begin % 64);
      if (w == (end - 1) / 64 && end % 64 != 0) word &= (std::uint64_t{1} << (end % 64)) - 1;
      total += static_cast<std::size_t>(std::popcount(word));
    }
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
