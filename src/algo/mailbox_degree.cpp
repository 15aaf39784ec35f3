#include "courier/algo/mailbox_degree.hpp"

#include "courier/core/timer.hpp"
#include "courier/mailbox/mailbox.hpp"

namespace courier::algo {

MailboxDegrees mailbox_degrees(comm::Runtime& runtime, std::span<const graph::Edge> my_edges,
                               graph::vertex_t num_vertices, const mailbox::Config& config, DegreeCount count) {
  const auto ranks = static_cast<graph::vertex_t>(runtime.ranks());
  const auto rank = static_cast<graph::vertex_t>(runtime.rank());
  MailboxDegrees result;
  result.counts.assign(static_cast<std::size_t>(num_vertices / ranks + (rank < num_vertices % ranks ? 1 : 0)), 0);
  std::uint64_t* counts = result.counts.data();
  const FastDivisor owners(ranks);
  auto box = mailbox::make_mailbox<graph::vertex_t>(
      runtime, [counts, owners](auto&, graph::vertex_t v) { ++counts[degree_local_index(v, owners)]; }, config);
  Timer timer;
  const bool both_ends = count == DegreeCount::in_and_out;
  for (const graph::Edge& e : my_edges) {
    box.async_send(degree_owner(e.src, owners), e.src);
    if (both_ends) box.async_send(degree_owner(e.dst, owners), e.dst);
  }
  box.wait_empty();
  result.seconds = timer.elapsed();
  result.stats = box.local_stats();
  return result;
}

}  // namespace courier::algo
