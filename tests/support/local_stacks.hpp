#pragma once
// Ranks as threads of this test on the local transport, each with the stack sync::Stack opens for
// it (the lci channel), the progress budget shared out as the engines share it.
#include <functional>
#include <memory>

#include "courier/comm/local_world.hpp"
#include "courier/sync/stack.hpp"

namespace courier::test_support {

// body(runtime, stack) on each of `ranks` ranks; returns when all are done.
inline void on_local_stacks(int ranks, const sync::StackSpec& spec,
                            const std::function<void(comm::Runtime&, sync::Stack&)>& body) {
  const sync::ProgressBudget budget = sync::Stack::local_budget(ranks, spec.threads_per_rank);
  comm::run_local(
      static_cast<rank_t>(ranks),
      [&](comm::Runtime& runtime) {
        const std::unique_ptr<sync::Stack> stack = sync::Stack::open(spec, runtime, budget);
        body(runtime, *stack);
      },
      sync::Stack::runtime_options(spec, budget));
}

}  // namespace courier::test_support
