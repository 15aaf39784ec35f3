// degree: each vertex's out-degree. Vertex engine: degree.cpp; mailbox engine: paper 001's
// Algorithm 1 counting out-edges (mailbox_degree.cpp). Checked against the sequential reference.
#include <algorithm>

#include <fmt/format.h>

#include "courier/algo/algorithms.hpp"
#include "courier/algo/degree.hpp"
#include "courier/algo/mailbox_degree.hpp"
#include "courier/engines/mailbox.hpp"
#include "courier/engines/vertex.hpp"
#include "courier/graph/reference/degrees.hpp"
#include "courier/graph/verify.hpp"
#include "describe.hpp"

namespace courier::algo {

namespace {

engines::MailboxResult on_mailbox(const engines::MailboxShare& share) {
  MailboxDegrees d = mailbox_degrees(share.runtime, share.edges, share.vertices, share.config, DegreeCount::out);
  engines::MailboxResult out{std::move(d.counts), {}};
  out.report.stats = d.stats;
  out.report.run_seconds = d.seconds;
  return out;
}

}  // namespace

harness::Algorithm degree_algorithm() {
  harness::Algorithm a;
  a.name = "degree";
  a.about = "out-degree of each vertex";
  a.reference = [](const graph::Csr& g, const harness::Request&) {
    return harness::Output{graph::reference::out_degrees(g), {}};
  };
  a.verify = [](const graph::Csr& g, const harness::Request&, const harness::Output& out, bool is_reference) {
    if (is_reference) return describe::by_itself("degree");
    return harness::Verdict{"the sequential reference",
                            graph::verify::equal(graph::reference::out_degrees(g), describe::integers(out), "out-degree")};
  };
  a.summarise = [](const harness::Output& out, const harness::Request&, std::uint64_t edges) {
    const auto& degree = describe::integers(out);
    const std::uint64_t largest = degree.empty() ? 0 : *std::max_element(degree.begin(), degree.end());
    const double mean = degree.empty() ? 0 : static_cast<double>(edges) / static_cast<double>(degree.size());
    return harness::Summary{{{"Out-degree", fmt::format("max {}, mean {:.3f}", largest, mean)}},
                            {{"max_degree", largest}, {"mean_degree", mean}}};
  };
  a.kernels["vertex"] = std::make_shared<engines::VertexKernel>(
      [](vertex::Engine& e, const harness::Request&) { return harness::Output{out_degrees(e), {}}; });
  auto mailbox = std::make_shared<engines::MailboxKernel>();
  mailbox->run = on_mailbox;
  a.kernels["mailbox"] = std::move(mailbox);
  return a;
}

}  // namespace courier::algo
