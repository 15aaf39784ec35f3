#pragma once
// The four kernels of Table II (paper 000) as the engine benchmark runs them, through their
// descriptors (algo/algorithms.hpp), each reduced to a fingerprint of its result so that channels,
// rank counts and the sequential reference can be compared without gathering whole results.
#include <cstdint>
#include <string>
#include <vector>

#include "courier/vertex/engine.hpp"
#include "courier/graph/csr.hpp"
#include "courier/harness/algorithm.hpp"

namespace courier::bench {

inline const std::vector<std::string> kKernels{"bfs", "cc", "sssp", "pagerank"};

struct KernelOptions {
  graph::vertex_t source = 0;        // bfs, sssp
  std::uint64_t delta = 32;          // sssp: delta-stepping bucket width (0: Bellman-Ford)
  unsigned pagerank_iterations = 20;  // a fixed count, as Table II compares like with like
  // Empty: each kernel's own default. Else auto, push or pull for every kernel that takes it, with
  // cc by label propagation (union-find has no direction): paper 000's Fig. 4, Gemini's dual mode.
  std::string direction;
};

// A kernel as the benchmark runs it: its descriptor and the request its kernels get.
struct Kernel {
  const harness::Algorithm* algorithm = nullptr;
  harness::Request request;
};
// InputError for a name the registry does not know or the vertex engine does not run.
Kernel find_kernel(const std::string& name, const KernelOptions& options);

// Integer results must match exactly; pagerank's within a relative 1e-7: sums arrive in any order, and
// the vertex engine pulls shares stored as float (kron:10 at 2 ranks differs from the reference by 2.5e-9).
struct Fingerprint {
  std::uint64_t exact = 0;
  double approximate = 0;
  bool matches(const Fingerprint& other) const;
};

// Adds one vertex's value to a fingerprint (the same mixing for engine and reference results).
void add_integer(Fingerprint& print, graph::vertex_t global, std::uint64_t value);
void add_real(Fingerprint& print, graph::vertex_t global, double value);

// Runs the kernel's vertex-engine kernel on every rank's engine (collective) and returns the
// fingerprint of this rank's masters; the ranks' fingerprints add up to the whole result's (the
// caller sums them, outside the timed part).
Fingerprint run_kernel(const Kernel& kernel, vertex::Engine& engine);
// Adds `other` in (the fingerprint of a union of disjoint vertex sets).
void combine(Fingerprint& into, const Fingerprint& other);
// The kernel's sequential reference on the whole graph and its fingerprint.
Fingerprint run_reference(const Kernel& kernel, const graph::Csr& csr);

}  // namespace courier::bench
