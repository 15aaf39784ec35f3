#include "courier/core/hash.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <numeric>
#include <set>
#include <vector>

namespace hash_test {

using courier::hash_bytes;

namespace {

TEST(Hash, StableAndSeeded) {
  const std::string text = "the quick brown fox";
  EXPECT_EQ(hash_bytes(text.data(), text.size()), hash_bytes(text.data(), text.size()));
  EXPECT_NE(hash_bytes(text.data(), text.size(), 1), hash_bytes(text.data(), text.size(), 2));
  // Values are written into files: they must never change.
  EXPECT_EQ(hash_bytes(text.data(), text.size()), hash_bytes(std::string(text).data(), text.size()));
}

TEST(Hash, EveryFlippedBitAndEveryLengthChangesTheHash) {
  std::vector<unsigned char> data(200);
  std::iota(data.begin(), data.end(), 1);
  std::set<std::uint64_t> seen;
  for (std::size_t length = 0; length <= data.size(); ++length) seen.insert(hash_bytes(data.data(), length));
  EXPECT_EQ(seen.size(), data.size() + 1);
  const std::uint64_t original = hash_bytes(data.data(), data.size());
  for (std::size_t bit = 0; bit < data.size() * 8; ++bit) {
    data[bit / 8] ^= static_cast<unsigned char>(1u << (bit % 8));
    EXPECT_NE(hash_bytes(data.data(), data.size()), original) << "bit " << bit;
    data[bit / 8] ^= static_cast<unsigned char>(1u << (bit % 8));
  }
}

TEST(Hash, IndependentOfAlignment) {
  std::vector<char> buffer(1000);
  for (std::size_t i = 0; i < buffer.size(); ++i) buffer[i] = static_cast<char>(i * 31);
  std::vector<char> shifted(buffer.size() + 3);
  std::memcpy(shifted.data() + 3, buffer.data(), buffer.size());
  EXPECT_EQ(hash_bytes(buffer.data(), buffer.size()), hash_bytes(shifted.data() + 3, buffer.size()));
}

TEST(Hash, ZeroBlocksOfDifferentLengthsDiffer) {
  const std::vector<char> zeros(4096, 0);
  EXPECT_NE(hash_bytes(zeros.data(), 64), hash_bytes(zeros.data(), 128));
  EXPECT_NE(hash_bytes(zeros.data(), 0), hash_bytes(zeros.data(), 8));
}

}  // namespace

}  // namespace hash_test
