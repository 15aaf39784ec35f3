// Delegates: the lookup every edge end goes through, against the sorted list it indexes.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "courier/algo/mailbox_delegates.hpp"

namespace mailbox_delegates_test {

namespace algo = courier::algo;
using courier::graph::vertex_t;

TEST(MailboxDelegates, IndexOfFindsEveryDelegateAndNothingElse) {
  for (std::size_t count : {0u, 1u, 3u, 100u, 5000u}) {
    std::set<vertex_t> chosen;
    for (vertex_t i = 0; chosen.size() < count; ++i) chosen.insert((i * 2654435761u) % 1'000'003 * 7);
    std::vector<vertex_t> ids(chosen.rbegin(), chosen.rend());  // unsorted on purpose
    const algo::Delegates delegates(ids, 10);
    ASSERT_EQ(delegates.size(), count);
    EXPECT_TRUE(std::is_sorted(delegates.ids().begin(), delegates.ids().end()));
    for (std::uint32_t i = 0; i < delegates.size(); ++i) ASSERT_EQ(delegates.index_of(delegates.id(i)), i);
    for (vertex_t v = 0; v < 20000; ++v)
      ASSERT_EQ(delegates.contains(v), chosen.count(v) == 1) << "vertex " << v << " of " << count << " delegates";
  }
}

}  // namespace mailbox_delegates_test
