#pragma once
// The largest test matrices under a sanitizer (ASan + UBSan, or TSan). The sanitizers look for
// memory errors and races, which the code paths show, not every product of the inputs; under
// their 2-15x slowdown four matrices (la's engine and tiles, the dsl engine, the long graphs)
// took a third of the ASan suite's time. So under them a matrix keeps some of its axes whole and
// takes the combinations of the others in turn; the Release suite walks the whole product.
#include <cstddef>

namespace courier::test_support {

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
inline constexpr bool kSanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
inline constexpr bool kSanitized = true;
#else
inline constexpr bool kSanitized = false;
#endif
#else
inline constexpr bool kSanitized = false;
#endif

// Whether to run the combination at `kept` (the sum of the kept axes' indices) and `turned` (the
// index, 0 to count - 1, of the other axes' combination): under a sanitizer each combination of the
// kept axes runs once, with the turned ones' combination `kept mod count`, so that every value of
// a kept axis meets every turned combination once its partner axis has `count` values or more.
// Everywhere else, every combination.
constexpr bool walks(std::size_t kept, std::size_t turned, std::size_t count) {
  return !kSanitized || turned == kept % count;
}

}  // namespace courier::test_support
