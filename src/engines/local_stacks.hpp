#pragma once
// What every distributed engine does without a launcher: ranks as threads of this process on the
// local transport, each with its communication stack opened for it (sync::Stack, the one owner),
// the progress budget shared out as the node allows. A rank's failure that the others cannot
// agree on ends the process (harness/launch.hpp).
#include <functional>

#include "courier/sync/stack.hpp"

namespace courier::engines {

// body(stack) on each of `ranks` ranks of `threads` compute threads; returns when all are done.
void run_local_stacks(int ranks, unsigned threads, const sync::StackSpec& options,
                      const std::function<void(sync::Stack& stack)>& body);

// Threads per rank for building its partition: `threads`, but no more than the cores that
// `ranks_in_process` ranks of this process leave each other (ranks as threads share them).
unsigned build_threads(unsigned threads, int ranks_in_process);

}  // namespace courier::engines
