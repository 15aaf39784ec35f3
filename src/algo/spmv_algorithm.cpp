// spmv: y = A x for one fixed x, x[v] = 1 / (v + 1), so that every column weighs differently and a
// product added to the wrong row shows; A[u][v] is the weight of edge u -> v (1 if unweighted).
// Vertex engine: each row's out-edges, mirrors' parts summed into masters (spmv.cpp); mailbox engine: paper 001's
// Algorithm 2 with delegates (mailbox_spmv.cpp); la engine: one plus-times product. Checked against the sequential
// reference to within rounding.
#include <fmt/format.h>

#include <cmath>

#include "courier/algo/algorithms.hpp"
#include "courier/algo/mailbox_spmv.hpp"
#include "courier/algo/spmv.hpp"
#include "courier/core/timer.hpp"
#include "courier/engines/la.hpp"
#include "courier/engines/mailbox.hpp"
#include "courier/engines/vertex.hpp"
#include "courier/graph/reference/spmv.hpp"
#include "courier/graph/verify.hpp"
#include "courier/mailbox/round_robin.hpp"
#include "describe.hpp"
#include "la_programs.hpp"

namespace courier::algo {

namespace {

double x_of(graph::vertex_t v) { return 1.0 / static_cast<double>(v + 1); }

std::vector<double> x_vector(graph::vertex_t vertices) {
  std::vector<double> x(vertices);
  for (graph::vertex_t v = 0; v < vertices; ++v) x[v] = x_of(v);
  return x;
}

engines::MailboxResult on_mailbox(const engines::MailboxShare& share) {
  MailboxMatrix a(share.runtime, share.edges, share.weights, share.vertices,
                  {share.config, DelegatePolicy{share.delegate_threshold}});
  const mailbox::RoundRobin own(share.runtime.ranks(), share.runtime.rank(), share.vertices);
  std::vector<double> x(own.owned());
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = x_of(own.global(i));
  Timer timer;
  engines::MailboxResult out{a.multiply(x), {}};
  out.report = {a.stats(),           a.setup_stats(),           a.setup_seconds(),  timer.elapsed(),
                a.delegates().size(), a.delegates().threshold(), a.local_nonzeros()};
  return out;
}

harness::Summary products(const harness::Output& out) {
  const auto& y = describe::reals(out);
  double sum = 0;
  graph::vertex_t largest = 0;
  for (graph::vertex_t v = 0; v < y.size(); ++v) {
    sum += y[v];
    if (std::abs(y[v]) > std::abs(y[largest])) largest = v;
  }
  const double largest_value = y.empty() ? 0.0 : y[largest];
  return {{{"Product", "y = A x, A[u][v] = weight of u -> v (1 if none), x[v] = 1 / (v + 1)"},
           {"Sum of y", fmt::format("{:.9g}", sum)},
           {"Largest", fmt::format("y[{}] = {:.9g}", largest, largest_value)}},
          {{"x", "1/(v+1)"}, {"sum", sum}, {"largest_vertex", largest}, {"largest_value", largest_value}}};
}

}  // namespace

harness::Algorithm spmv_algorithm() {
  harness::Algorithm a;
  a.name = "spmv";
  a.about = "sparse matrix-vector product y = A x, x[v] = 1 / (v + 1)";
  a.reference = [](const graph::Csr& g, const harness::Request&) {
    return harness::Output{graph::reference::spmv(g, x_vector(g.num_vertices())), {}};
  };
  a.verify = [](const graph::Csr& g, const harness::Request&, const harness::Output& out, bool is_reference) {
    if (is_reference) return describe::by_itself("spmv");
    // Sums in another order differ in the last bits: the distance allowed grows with |y|.
    const std::vector<double> expected = graph::reference::spmv(g, x_vector(g.num_vertices()));
    double norm = 0;
    for (double y : expected) norm += std::abs(y);
    return harness::Verdict{
        "the sequential reference, L1 distance within 1e-9 of |y|",
        graph::verify::close(expected, describe::reals(out), 1e-9 * std::max(1.0, norm), "y = A x")};
  };
  a.summarise = [](const harness::Output& out, const harness::Request&, std::uint64_t) { return products(out); };
  a.kernels["vertex"] = std::make_shared<engines::VertexKernel>([](vertex::Engine& e, const harness::Request&) {
    return harness::Output{spmv(e, x_of), {}};
  });
  auto mailbox = std::make_shared<engines::MailboxKernel>();
  mailbox->run = on_mailbox;
  mailbox->real_values = true;
  mailbox->weights = true;
  mailbox->delegates = true;
  mailbox->count_name = "nonzeros";
  a.kernels["mailbox"] = std::move(mailbox);
  auto la = std::make_shared<engines::LaKernel>();
  la->run = [](const engines::LaContext& context, const harness::Request&) {
    return engines::run_program(context, la_programs::Product<double (*)(graph::vertex_t)>{x_of},
                                [](const auto&) { return std::any(); });
  };
  la->weights = engines::LaKernel::Weights::any;
  la->reversed = true;
  a.kernels["la"] = std::move(la);
  return a;
}

}  // namespace courier::algo
