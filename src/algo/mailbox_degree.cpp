#include "courier/algo/mailbox_degree.hpp"

#include "courier/core/timer.hpp"
#include "courier/mailbox/mailbox.hpp"
#include "mailbox_threads.hpp"

namespace courier::algo {

MailboxDegrees mailbox_degrees(comm::Runtime& runtime, std::span<const graph::Edge> my_edges,
                               graph::vertex_t num_vertices, const mailbox::Config& config, DegreeCount count) {
  const auto ranks = static_cast<graph::vertex_t>(runtime.ranks());
  const auto rank = static_cast<graph::vertex_t>(runtime.rank());
  MailboxDegrees result;
  result.counts.assign(static_cast<std::size_t>(num_vertices / ranks + (rank < num_vertices % ranks ? 1 : 0)), 0);
  std::uint64_t* counts = result.counts.data();
  const FastDivisor owners(ranks);
  // Callbacks of a rank never run at once (mailbox.hpp), and only they touch the counts.
  auto box = mailbox::make_mailbox<graph::vertex_t>(
      runtime, [counts, owners](auto&, graph::vertex_t v) { ++counts[degree_local_index(v, owners)]; }, config);
  Timer timer;
  const bool both_ends = count == DegreeCount::in_and_out;
  // Thread t of T sends for the edges [m t / T, m (t + 1) / T) of this rank's share.
  const unsigned threads = box.threads();
  detail::on_threads(box, [&](unsigned t) {
    auto& mine = box.thread(t);
    const std::size_t m = my_edges.size();
    for (const graph::Edge& e : my_edges.subspan(m * t / threads, m * (t + 1) / threads - m * t / threads)) {
      mine.async_send(degree_owner(e.src, owners), e.src);
      if (both_ends) mine.async_send(degree_owner(e.dst, owners), e.dst);
    }
    mine.wait_empty();
  });
  result.seconds = timer.elapsed();
  result.stats = box.local_stats();
  return result;
}

}  // namespace courier::algo
