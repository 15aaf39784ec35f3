// cc: weakly connected components, each vertex labelled with its component's smallest id.
// Vertex engine: union-find inside ranks, then label rounds between them (cc_union_find.cpp);
// mailbox engine: asynchronous label propagation with delegates (mailbox_cc.cpp). Checked by an
// independent checker.
#include <fmt/format.h>

#include <algorithm>

#include "courier/algo/algorithms.hpp"
#include "courier/algo/cc.hpp"
#include "courier/algo/mailbox_cc.hpp"
#include "courier/core/error.hpp"
#include "courier/dsl/programs/cc.hpp"
#include "courier/engines/dsl.hpp"
#include "courier/engines/la.hpp"
#include "courier/engines/mailbox.hpp"
#include "courier/engines/vertex.hpp"
#include "courier/graph/reference/connected_components.hpp"
#include "courier/graph/verify.hpp"
#include "describe.hpp"
#include "la_programs.hpp"

namespace courier::algo {

namespace {

harness::Summary components(const harness::Output& out) {
  const auto& label = describe::integers(out);
  std::vector<graph::vertex_t> size(label.size(), 0);
  for (auto l : label) ++size[l];
  const auto count = std::count_if(size.begin(), size.end(), [](graph::vertex_t s) { return s > 0; });
  const graph::vertex_t largest = size.empty() ? 0 : *std::max_element(size.begin(), size.end());
  return {{{"Components", fmt::format("{}", count)}, {"Largest", fmt::format("{} vertices", largest)}},
          {{"components", count}, {"largest", largest}}};
}

engines::MailboxResult on_mailbox(const engines::MailboxShare& share) {
  MailboxComponents cc = mailbox_cc(share.runtime, share.edges, share.vertices,
                                    {share.config, DelegatePolicy{share.delegate_threshold}});
  return {
      describe::widen(std::move(cc.labels)),
      {cc.stats, cc.setup_stats, cc.setup_seconds, cc.seconds, cc.delegates, cc.delegate_threshold, cc.label_changes}};
}

}  // namespace

harness::Algorithm cc_algorithm() {
  harness::Algorithm a;
  a.name = "cc";
  a.about = "connected components: each vertex's component, named by its smallest vertex";
  a.needs = {.in_edges = true};  // label rounds pull
  a.options = {{.name = "method",
                .help = "union-find inside ranks then label rounds between them, or label propagation alone",
                .fallback = "union-find",
                .choices = {"union-find", "label-propagation"},
                .engines = {"vertex"}},
               {.name = "direction",
                .help = "label propagation's rounds: push from the changed vertices (the default: the fastest "
                        "measured here), pull into every vertex from its changed neighbours, or Gemini's rule chooses "
                        "(auto)",
                .choices = {"auto", "push", "pull"},
                .engines = {"vertex"}}};
  a.reference = [](const graph::Csr& g, const harness::Request&) {
    return harness::Output{describe::widen(graph::reference::connected_components(g)), {}};
  };
  a.verify = [](const graph::Csr& g, const harness::Request&, const harness::Output& out, bool) {
    return harness::Verdict{"independent components checker", graph::verify::components(g, describe::integers(out))};
  };
  a.summarise = [](const harness::Output& out, const harness::Request&, std::uint64_t) { return components(out); };
  a.kernels["vertex"] = std::make_shared<engines::VertexKernel>([](vertex::Engine& e, const harness::Request& r) {
    const bool union_find = r.options.text("method") == "union-find";
    if (union_find && r.options.has("direction"))
      throw InputError("cc: --direction is for --method label-propagation (union-find's label rounds visit every "
                       "vertex); add --method label-propagation, or drop --direction");
    // 32-bit labels below 2^32 - 1 vertices (harness::kNarrowUnreached is never a label then).
    if (union_find && e.graph().global_vertices() < harness::kNarrowUnreached)
      return harness::Output{cc_union_find<std::uint32_t>(e), {}};
    if (union_find) return harness::Output{describe::widen(cc_union_find(e)), {}};
    const Direction direction = parse_direction(r.options.has("direction") ? r.options.text("direction") : "push");
    return harness::Output{describe::widen(cc_label_propagation(e, direction)), {}};
  });
  auto mailbox = std::make_shared<engines::MailboxKernel>();
  mailbox->run = on_mailbox;
  mailbox->delegates = true;
  mailbox->count_name = "label_changes";
  a.kernels["mailbox"] = std::move(mailbox);
  auto la = std::make_shared<engines::LaKernel>();
  la->run = [](const engines::LaContext& context, const harness::Request&) {
    return engines::run_program(context, la_programs::Cc{}, [](const auto&) { return std::any(); });
  };
  la->both_directions = true;
  la->samples = true;  // the tiles keep samples: cc runs on them first
  la->pulls = true;    // ... and by rows: leaving them, the largest component's label is pulled
  a.kernels["la"] = std::move(la);
  a.kernels["dsl"] =
      std::make_shared<engines::DslKernel>(dsl::programs::cc_needs, [](dsl::rt::Graph& g, const harness::Request&) {
        dsl::rt::NodeProperty<dsl::rt::node> label(g);
        (g.naive() ? dsl::programs::naive::cc : dsl::programs::cc)(g, label);
        return harness::Output{dsl::rt::masters_as_integers(g, label), {}};
      });
  return a;
}

}  // namespace courier::algo
