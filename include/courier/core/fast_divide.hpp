#pragma once
// Division of 64-bit values by a divisor fixed at run time (a rank count), without a hardware
// divide: a multiply-high by M = floor((2^64 - 1) / d) gives the quotient or one less (for every
// 64-bit n, n / d - 1 < n * M / 2^64 <= n / d), and one compare fixes it. A 64-bit `div` costs
// tens of cycles; this costs two multiplies, so message owners (v mod P) and local indices
// (v / P) are cheap on the hot paths.
#include <cstdint>
#include <stdexcept>

namespace courier {

class FastDivisor {
 public:
  explicit FastDivisor(std::uint64_t divisor) : divisor_(divisor), magic_(divisor == 0 ? 0 : ~std::uint64_t{0} / divisor) {
    if (divisor == 0) throw std::invalid_argument("FastDivisor: division by zero");
  }

  std::uint64_t divisor() const { return divisor_; }

  struct QuotientRemainder {
    std::uint64_t quotient, remainder;
  };

  QuotientRemainder divide(std::uint64_t n) const {
    std::uint64_t q = static_cast<std::uint64_t>((static_cast<unsigned __int128>(n) * magic_) >> 64);
    std::uint64_t r = n - q * divisor_;
    const bool short_by_one = r >= divisor_;
    q += short_by_one ? 1 : 0;
    r -= short_by_one ? divisor_ : 0;
    return {q, r};
  }

  std::uint64_t quotient(std::uint64_t n) const { return divide(n).quotient; }
  std::uint64_t remainder(std::uint64_t n) const { return divide(n).remainder; }

 private:
  std::uint64_t divisor_;
  std::uint64_t magic_;
};

}  // namespace courier
