#pragma once
// How the lci channel's runtime makes progress (issue 5). A progress server thread moves messages
// while every compute thread computes, but it needs a hardware thread of its own (paper 000
// reserves a core for it): where the node's ranks x compute threads already take every hardware
// thread, the server only takes time from compute, so the threads that wait for messages drive
// progress instead (explicit progress). `automatic` chooses between the two by that count.
//
//   const bool server = sync::wants_progress_thread(mode, {.ranks_on_node = 4, .threads_per_rank = 1});
//
// The count follows the process's CPU binding where the launcher set one: a rank bound to one core
// has no core to spare for a server, however many the node has.
#include <string_view>
#include <vector>

#include "courier/net/device.hpp"

namespace courier::sync {

enum class ProgressMode { automatic, thread, explicit_calls };

// "auto", "thread", "explicit"; throws InputError naming the choices for anything else.
ProgressMode parse_progress_mode(std::string_view text);
std::string_view to_string(ProgressMode mode);

// What shares the hardware threads a rank may run on.
struct ProgressBudget {
  int ranks_on_node = 1;          // ranks on this rank's node (processes, or ranks as threads)
  unsigned threads_per_rank = 1;  // compute threads per rank
  unsigned hardware_threads = 0;  // the node's; 0: this machine's, with allowed_threads read too
  unsigned allowed_threads = 0;   // those this process is bound to; 0: all of hardware_threads
  int ranks_in_process = 1;       // ranks that are threads of this process (the local transport: all)
};

// thread: true; explicit: false; automatic: true only when a hardware thread is left over for
// the server (compute threads < hardware threads, as counted below).
bool wants_progress_thread(ProgressMode mode, const ProgressBudget& budget);

// More compute threads than hardware threads: ranks take turns on the cores. Unbound, the node's
// ranks share its hardware threads (ranks_on_node x threads_per_rank against hardware_threads);
// bound to fewer (mpirun --bind-to core), a process has its binding to itself (ranks_in_process x
// threads_per_rank against allowed_threads). A binding shared by several processes (--bind-to
// socket) is counted as if each had it alone.
bool oversubscribed(const ProgressBudget& budget);

// How many ranks share `rank`'s node, from a transport's rank -> node table
// (net::Device::rank_nodes); 1 when the table does not name the rank.
int ranks_on_node(const std::vector<int>& rank_nodes, int rank);

// The budget of a rank that is one process of a launcher (mpi, ofi): the node's ranks as the
// device places them, `threads_per_rank` compute threads each, the hardware read from the system.
ProgressBudget process_budget(const net::Device& device, unsigned threads_per_rank);

}  // namespace courier::sync
