// Messages pick the smallest metadata and decode to exactly what was encoded.
#include "courier/sync/encoding.hpp"

#include <gtest/gtest.h>

#include <map>
#include <random>
#include <utility>

namespace encoding_test {

using namespace courier;
using namespace courier::sync;

namespace {

struct Decoded {
  Metadata metadata;
  std::map<std::size_t, double> entries;
};

Decoded round_trip(const std::vector<std::uint32_t>& list, const std::vector<std::uint32_t>& updated_proxies,
                   std::size_t proxies) {
  Bitset updated(proxies);
  for (auto p : updated_proxies) updated.set(p);
  std::vector<double> value(proxies);
  for (std::size_t i = 0; i < proxies; ++i) value[i] = 0.5 + static_cast<double>(i);
  Bytes message;
  encode<double, std::uint32_t>(list, updated, value, message);
  EXPECT_LE(message.size(), max_message_bytes(list.size(), sizeof(double)));
  Decoded d;
  std::memcpy(&d.metadata, message.data(), sizeof d.metadata);
  const std::size_t read = decode<double>(message, list.size(), [&](std::size_t i, double v) { d.entries[i] = v; });
  EXPECT_EQ(read, message.size());
  return d;
}

}  // namespace

TEST(Wire, ChoosesMetadataBySizeAndRoundTrips) {
  std::vector<std::uint32_t> list(200);
  for (std::uint32_t i = 0; i < 200; ++i) list[i] = 2 * i;  // every other proxy

  const Decoded none = round_trip(list, {1, 3}, 400);  // odd proxies are not in the list
  EXPECT_EQ(none.metadata, Metadata::empty);
  EXPECT_TRUE(none.entries.empty());

  const Decoded few = round_trip(list, {10, 398}, 400);
  EXPECT_EQ(few.metadata, Metadata::offsets);
  EXPECT_EQ(few.entries, (std::map<std::size_t, double>{{5, 10.5}, {199, 398.5}}));

  std::vector<std::uint32_t> many;
  for (std::uint32_t p = 0; p < 300; p += 2) many.push_back(p);
  const Decoded most = round_trip(list, many, 400);
  EXPECT_EQ(most.metadata, Metadata::bitset);
  EXPECT_EQ(most.entries.size(), many.size());
  EXPECT_EQ(most.entries.at(149), 298.5);

  const Decoded all = round_trip(list, list, 400);
  EXPECT_EQ(all.metadata, Metadata::all);
  EXPECT_EQ(all.entries.size(), 200u);
}

TEST(Wire, RejectsMessagesThatDoNotFitTheList) {
  std::vector<std::uint32_t> list{0, 1, 2};
  Bitset updated(3);
  updated.set(1);
  std::vector<double> value{1, 2, 3};
  Bytes message;
  encode<double, std::uint32_t>(list, updated, value, message);
  auto ignore = [](std::size_t, double) {};
  EXPECT_THROW(decode<double>(std::span<const std::byte>(message).first(message.size() - 1), 3, ignore), Error);
  EXPECT_THROW(decode<double>(message, 1, ignore), Error);  // offset 1 beyond a list of 1
  EXPECT_THROW(decode<double>(std::span<const std::byte>(message).first(3), 3, ignore), Error);
}

TEST(Wire, ARangeEncodesTheSameBytesAsItsList) {
  // The word-at-a-time path for consecutive proxies must write exactly what the per-entry path
  // writes, at every density (each metadata kind) and for ranges that start and end mid-word.
  std::mt19937_64 random(7);
  const std::size_t proxies = 1000;
  std::vector<double> value(proxies);
  for (std::size_t i = 0; i < proxies; ++i) value[i] = 0.25 + static_cast<double>(i);
  for (const double density : {0.0, 0.002, 0.05, 0.6, 1.0}) {
    Bitset updated(proxies);
    std::bernoulli_distribution pick(density);
    for (std::size_t p = 0; p < proxies; ++p)
      if (pick(random)) updated.set(p);
    for (const auto& [first, n] :
         {std::pair<std::size_t, std::size_t>{0, 1000}, {3, 61}, {64, 64}, {70, 700}, {999, 1}, {5, 0}}) {
      std::vector<std::uint32_t> list(n);
      for (std::size_t i = 0; i < n; ++i) list[i] = static_cast<std::uint32_t>(first + i);
      Bytes by_list, by_range;
      encode<double, std::uint32_t>(list, updated, value, by_list);
      encode_range<double>(first, n, updated, value, by_range);
      EXPECT_EQ(by_range, by_list) << "density " << density << ", range " << first << " + " << n;
    }
  }
}

}  // namespace encoding_test
