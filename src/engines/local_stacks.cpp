#include "local_stacks.hpp"

#include <memory>

#include "courier/harness/launch.hpp"

namespace courier::engines {

void run_local_stacks(int ranks, unsigned threads, const sync::StackSpec& options,
                      const std::function<void(sync::Stack& stack)>& body) {
  const sync::ProgressBudget budget = sync::Stack::local_budget(ranks, threads);
  harness::run_local_ranks(
      ranks,
      [&](comm::Runtime& runtime) {
        std::unique_ptr<sync::Stack> stack = sync::Stack::open(options, runtime, budget);
        body(*stack);
      },
      sync::Stack::runtime_options(options, budget));
}

}  // namespace courier::engines
