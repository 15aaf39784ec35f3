#pragma once
// A rank: one process (or, without a launcher, one thread standing for a process), numbered
// 0..ranks-1. An int because MPI's ranks are.

namespace courier {

using rank_t = int;

}  // namespace courier
