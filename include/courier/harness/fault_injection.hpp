#pragma once
// Fault injection, for the tests that check a failure on one rank ends the whole run (with --ranks
// and under mpirun): COURIER_FAIL_ON_RANK=R:STEP makes rank R throw when it reaches STEP, and
// R:STEP:oom throws std::bad_alloc there, as running out of memory would, and R:STEP:stop stops the
// process there (SIGSTOP), as a frozen rank would (the watchdog's test). Steps: the partitioning's
// (transform, degrees, shuffle, local graph: dist::DistributedLoadOptions::before_step), "run"
// (the vertex engine's algorithm, the mailbox and la engines' run). Unset: nothing happens; a
// value that names no step is an InputError, not a test that silently injects nothing.
#include <array>
#include <functional>
#include <string_view>

namespace courier::harness {

inline constexpr std::array<std::string_view, 5> kFaultSteps{"transform", "degrees", "shuffle", "local graph", "run"};

// Throws if COURIER_FAIL_ON_RANK names this rank and step.
void maybe_fail(int rank, std::string_view step);

// maybe_fail for `rank`, as a before_step hook; empty when COURIER_FAIL_ON_RANK is unset.
std::function<void(std::string_view)> failure_hook(int rank);

}  // namespace courier::harness
