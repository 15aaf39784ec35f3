#pragma once
// Bitset: a fixed-size set of small integers that many threads may add to at once (set is an
// atomic fetch_or), as the compute threads of a round mark the labels they updated.
//
// It remembers the 64-bit words it touched since it was last cleared, while they are few (at most
// an eighth of its words), so clearing, counting and visiting cost the touched words, not the
// size: a round that updates three vertices of a million-vertex graph scans three words. Past that
// it scans every word, which then costs at most eight times the touched ones. Range operations use
// the list once tidy() has sorted it. Words visited are counted (scan_count.hpp).
// set, set_exclusive, reset, test and the range operations may run on many threads at once;
// clear, tidy, swap, add_all, set_range, drain, count() and any() want the set to themselves.
#include <algorithm>
#include <atomic>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <memory>

#include "courier/core/scan_count.hpp"

namespace courier {

class Bitset {
 public:
  Bitset() = default;
  explicit Bitset(std::size_t size) { resize(size); }
  Bitset(Bitset&& other) noexcept { swap(other); }
  Bitset& operator=(Bitset&& other) noexcept {
    Bitset gone(std::move(*this));
    swap(other);
    return *this;
  }

  void resize(std::size_t size) {
    size_ = size;
    words_ = std::make_unique<std::uint64_t[]>(word_count());
    listed_ = std::make_unique<std::atomic<std::uint64_t>[]>((word_count() + 63) / 64);
    capacity_ = word_count() <= UINT32_MAX ? word_count() / 8 : 0;  // listed as 32-bit word indices
    touched_ = std::make_unique<std::uint32_t[]>(capacity_);
    clear_all();
  }
  std::size_t size() const { return size_; }
  void swap(Bitset& other) noexcept {
    std::swap(size_, other.size_);
    std::swap(words_, other.words_);
    std::swap(listed_, other.listed_);
    std::swap(touched_, other.touched_);
    std::swap(capacity_, other.capacity_);
    std::swap(sorted_, other.sorted_);
    const std::size_t mine = touched_count_.load(std::memory_order_relaxed);
    touched_count_.store(other.touched_count_.load(std::memory_order_relaxed), std::memory_order_relaxed);
    other.touched_count_.store(mine, std::memory_order_relaxed);
  }

  // Thread-safe; returns whether the bit was clear before. A plain read first skips the atomic
  // read-modify-write when the bit is already set (a vertex improved twice in a round). Only the
  // bit's old value is asked of the read-modify-write, so it is one `lock bts`, not a
  // compare-and-swap loop; the word is listed if it looked empty (touch lists a word once, and a
  // word emptied by reset() stays listed until tidy(), which no set runs beside).
  bool set(std::size_t i) {
    const std::uint64_t bit = std::uint64_t{1} << (i % 64);
    const std::atomic_ref<std::uint64_t> word = atomic_word(i / 64);
    const std::uint64_t seen = word.load(std::memory_order_relaxed);
    if (seen & bit) return false;
    if (word.fetch_or(bit, std::memory_order_relaxed) & bit) return false;
    if (seen == 0) touch(i / 64);
    return true;
  }
  // Sets i without an atomic read-modify-write: only while no other thread writes i's 64-bit
  // word (e.g. threads that own whole words of a range, as Engine::pull hands them out).
  void set_exclusive(std::size_t i) {
    const std::atomic_ref<std::uint64_t> bits = atomic_word(i / 64);
    const std::uint64_t before = bits.load(std::memory_order_relaxed);
    bits.store(before | (std::uint64_t{1} << (i % 64)), std::memory_order_relaxed);
    if (before == 0) touch(i / 64);
  }
  // Adds every i in [begin, end), a word at a time; not thread-safe.
  void set_range(std::size_t begin, std::size_t end) {
    if (begin >= end) return;
    for (std::size_t w = begin / 64; w <= (end - 1) / 64; ++w) {
      const std::uint64_t mask = range_mask(w, begin, end);
      const std::uint64_t before = atomic_word(w).load(std::memory_order_relaxed);
      atomic_word(w).store(before | mask, std::memory_order_relaxed);
      if (before == 0) touch(w);
    }
  }
  // Adds every member of `other` (the same size), a word at a time; not thread-safe.
  void add_all(const Bitset& other) {
    auto add = [&](std::size_t w, std::uint64_t bits) {
      if (atomic_word(w).fetch_or(bits, std::memory_order_relaxed) == 0) touch(w);
    };
    const std::size_t touched = other.touched_count_.load(std::memory_order_relaxed);
    if (touched >= other.capacity_) return other.for_each_word(0, other.word_count(), add);
    for (std::size_t k = 0; k < touched; ++k)  // in any order: no need to sort
      if (const std::uint64_t bits = other.atomic_word(other.touched_[k]).load(std::memory_order_relaxed))
        add(other.touched_[k], bits);
    count_scanned_words(touched);
  }
  bool test(std::size_t i) const { return (atomic_word(i / 64).load(std::memory_order_relaxed) >> (i % 64)) & 1; }
  // The set read with plain loads, for an operator that only tests it while no thread writes it
  // (a pull testing the last round's frontier), and no longer than the set keeps its words (until
  // it is resized, moved or swapped). Atomic loads would make the compiler reload every pointer it
  // reaches through memory at each test; these let it keep them in registers.
  struct View {
    const std::uint64_t* words;
    bool test(std::size_t i) const { return (words[i / 64] >> (i % 64)) & 1; }
  };
  View view() const { return View{words_.get()}; }
  // Clears i; its word stays listed (clear() empties it).
  void reset(std::size_t i) {
    atomic_word(i / 64).fetch_and(~(std::uint64_t{1} << (i % 64)), std::memory_order_relaxed);
  }
  // Not thread-safe. Costs the touched words while they are listed.
  void clear() {
    const std::size_t touched = touched_count_.load(std::memory_order_relaxed);
    if (touched >= capacity_) {
      clear_all();
      return;
    }
    for (std::size_t k = 0; k < touched; ++k) {
      atomic_word(touched_[k]).store(0, std::memory_order_relaxed);
      listed_[touched_[k] / 64].store(0, std::memory_order_relaxed);
    }
    count_scanned_words(touched);
    touched_count_.store(0, std::memory_order_relaxed);
    sorted_ = 0;
  }
  // Sorts the list of touched words and drops those that reset() emptied, so that range
  // operations visit only listed words; a set that outgrew its list is listed again if few words
  // are set by now (one scan). Call it from one thread while none sets bits; a bit set afterwards in
  // a word not yet listed makes range operations scan again until the next tidy().
  void tidy() {
    const std::size_t touched = touched_count_.load(std::memory_order_relaxed);
    if (touched >= capacity_) {
      relist();
      return;
    }
    std::sort(touched_.get() + sorted_, touched_.get() + touched);
    std::inplace_merge(touched_.get(), touched_.get() + sorted_, touched_.get() + touched);
    std::size_t kept = 0;
    for (std::size_t k = 0; k < touched; ++k) {
      const std::uint32_t w = touched_[k];
      if (atomic_word(w).load(std::memory_order_relaxed) != 0)
        touched_[kept++] = w;
      else
        listed_[w / 64].fetch_and(~(std::uint64_t{1} << (w % 64)), std::memory_order_relaxed);
    }
    count_scanned_words(touched);
    touched_count_.store(kept, std::memory_order_relaxed);
    sorted_ = kept;
  }
  // Whether the touched words are listed (few), so whole-set operations cost only them.
  bool listed() const { return touched_count_.load(std::memory_order_relaxed) < capacity_; }

  std::size_t count() const {
    std::size_t total = 0;
    const std::size_t touched = touched_count_.load(std::memory_order_relaxed);
    if (touched < capacity_) {
      for (std::size_t k = 0; k < touched; ++k)
        total += static_cast<std::size_t>(std::popcount(atomic_word(touched_[k]).load(std::memory_order_relaxed)));
      count_scanned_words(touched);
      return total;
    }
    return count(0, size_);
  }
  // Members in [begin, end), a word at a time.
  std::size_t count(std::size_t begin, std::size_t end) const {
    std::size_t total = 0;
    if (begin >= end) return 0;
    for_each_word(begin / 64, (end - 1) / 64 + 1, [&](std::size_t w, std::uint64_t word) {
      total += static_cast<std::size_t>(std::popcount(word & range_mask(w, begin, end)));
    });
    return total;
  }
  bool any() const {
    const std::size_t touched = touched_count_.load(std::memory_order_relaxed);
    if (touched < capacity_) {
      count_scanned_words(touched);
      for (std::size_t k = 0; k < touched; ++k)
        if (atomic_word(touched_[k]).load(std::memory_order_relaxed) != 0) return true;
      return false;
    }
    count_scanned_words(word_count());
    for (std::size_t w = 0; w < word_count(); ++w)
      if (atomic_word(w).load(std::memory_order_relaxed) != 0) return true;
    return false;
  }
  // The smallest member, or size() when there is none.
  std::size_t first() const {
    std::size_t found = size_;
    for_each_word(0, word_count(), [&](std::size_t w, std::uint64_t word) {
      if (found == size_) found = w * 64 + static_cast<std::size_t>(std::countr_zero(word));
    });
    return found;
  }
  // Calls fn(i) for every set i in [begin, end), in order.
  template <class Fn>
  void for_each(std::size_t begin, std::size_t end, Fn&& fn) const {
    if (begin >= end) return;
    for_each_word(begin / 64, (end - 1) / 64 + 1, [&](std::size_t w, std::uint64_t word) {
      if (w == begin / 64) word &= ~std::uint64_t{0} << (begin % 64);
      for (; word != 0; word &= word - 1) {
        const std::size_t i = w * 64 + static_cast<std::size_t>(std::countr_zero(word));
        if (i >= end) return;
        fn(i);
      }
    });
  }
  // Calls fn(i) for every set i in [begin, end), in order, and removes them, a word at a time.
  // Not thread-safe.
  template <class Fn>
  void drain(std::size_t begin, std::size_t end, Fn&& fn) {
    if (begin >= end) return;
    for_each_word(begin / 64, (end - 1) / 64 + 1, [&](std::size_t w, std::uint64_t word) {
      const std::uint64_t mask = range_mask(w, begin, end);
      atomic_word(w).store(word & ~mask, std::memory_order_relaxed);
      for (word &= mask; word != 0; word &= word - 1) fn(w * 64 + static_cast<std::size_t>(std::countr_zero(word)));
    });
  }
  // Every member, in order (tidies first).
  template <class Fn>
  void for_each(Fn&& fn) {
    tidy();
    for_each(0, size_, fn);
  }

 private:
  std::size_t word_count() const { return (size_ + 63) / 64; }
  std::atomic_ref<std::uint64_t> atomic_word(std::size_t w) const { return std::atomic_ref<std::uint64_t>(words_[w]); }

  // The bits of word w that lie in [begin, end) (begin < end).
  static std::uint64_t range_mask(std::size_t w, std::size_t begin, std::size_t end) {
    std::uint64_t mask = ~std::uint64_t{0};
    if (w == begin / 64) mask &= ~std::uint64_t{0} << (begin % 64);
    if (w == (end - 1) / 64 && end % 64 != 0) mask &= (std::uint64_t{1} << (end % 64)) - 1;
    return mask;
  }

  // Word w became non-zero: list it, once, while the list has room.
  void touch(std::size_t w) {
    if (touched_count_.load(std::memory_order_relaxed) >= capacity_) return;
    const std::uint64_t bit = std::uint64_t{1} << (w % 64);
    if (listed_[w / 64].fetch_or(bit, std::memory_order_relaxed) & bit) return;
    const std::size_t at = touched_count_.fetch_add(1, std::memory_order_relaxed);
    if (at < capacity_) touched_[at] = static_cast<std::uint32_t>(w);
  }

  // Lists the non-zero words again after the list overflowed, if they fit now.
  void relist() {
    for (std::size_t w = 0; w < (word_count() + 63) / 64; ++w) listed_[w].store(0, std::memory_order_relaxed);
    std::size_t kept = 0;
    for (std::size_t w = 0; w < word_count() && kept <= capacity_; ++w)
      if (atomic_word(w).load(std::memory_order_relaxed) != 0) {
        if (kept < capacity_) {
          touched_[kept] = static_cast<std::uint32_t>(w);
          listed_[w / 64].fetch_or(std::uint64_t{1} << (w % 64), std::memory_order_relaxed);
        }
        ++kept;
      }
    count_scanned_words(word_count());
    touched_count_.store(kept, std::memory_order_relaxed);  // past capacity_: still too many
    sorted_ = kept < capacity_ ? kept : 0;
  }

  void clear_all() {
    for (std::size_t w = 0; w < word_count(); ++w) atomic_word(w).store(0, std::memory_order_relaxed);
    for (std::size_t w = 0; w < (word_count() + 63) / 64; ++w) listed_[w].store(0, std::memory_order_relaxed);
    count_scanned_words(word_count());
    touched_count_.store(0, std::memory_order_relaxed);
    sorted_ = 0;
  }

  // fn(w, word) for the non-zero words w in [first, last): the listed ones when the list is sorted
  // and current, else all of them.
  template <class Fn>
  void for_each_word(std::size_t first, std::size_t last, Fn&& fn) const {
    const std::size_t touched = touched_count_.load(std::memory_order_relaxed);
    if (touched < capacity_ && sorted_ == touched) {
      const std::uint32_t* begin = touched_.get();
      const std::uint32_t* end = begin + touched;
      const std::uint32_t* k = std::lower_bound(begin, end, static_cast<std::uint32_t>(first));
      std::size_t visited = 0;
      for (; k != end && *k < last; ++k, ++visited)
        if (const std::uint64_t word = atomic_word(*k).load(std::memory_order_relaxed)) fn(*k, word);
      count_scanned_words(visited + 1);
      return;
    }
    count_scanned_words(last - first);
    for (std::size_t w = first; w < last; ++w)
      if (const std::uint64_t word = atomic_word(w).load(std::memory_order_relaxed)) fn(w, word);
  }

  std::size_t size_ = 0;
  std::unique_ptr<std::uint64_t[]> words_;                // read and written through atomic_word()
  std::unique_ptr<std::atomic<std::uint64_t>[]> listed_;  // a bit per word: in touched_ already
  std::unique_ptr<std::uint32_t[]> touched_;              // word indices, as first touched
  std::size_t capacity_ = 0;                              // touched_'s room; beyond it, scan
  std::atomic<std::size_t> touched_count_{0};             // may pass capacity_: then not listed
  std::size_t sorted_ = 0;                                // touched_[0, sorted_) is in order
};

}  // namespace courier
