#include "local_stacks.hpp"

#include <algorithm>
#include <memory>

#include "courier/core/parallel.hpp"
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

unsigned build_threads(unsigned threads, int ranks_in_process) {
  return std::min(threads, std::max(1u, default_thread_count() / static_cast<unsigned>(std::max(ranks_in_process, 1))));
}

}  // namespace courier::engines
