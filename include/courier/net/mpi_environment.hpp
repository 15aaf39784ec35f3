#pragma once
// net::MpiEnvironment: MPI's lifetime as an object. The constructor initialises MPI unless someone
// already did (then it leaves MPI alone and the destructor does not finalise it either).
//
// It asks for MPI_THREAD_MULTIPLE: a Device is driven by one thread at a time, but other layers
// (benchmarks, start-up exchanges, user code) may call MPI from other threads. Both Open MPI and
// MPICH as packaged by Debian grant it; thread_level() says what was obtained, and code that needs
// more than that must check it.
#include <string>

namespace courier::net {

class MpiEnvironment {
 public:
  MpiEnvironment() : MpiEnvironment(nullptr, nullptr) {}
  MpiEnvironment(int* argc, char*** argv);
  ~MpiEnvironment();
  MpiEnvironment(const MpiEnvironment&) = delete;
  MpiEnvironment& operator=(const MpiEnvironment&) = delete;

  // MPI_THREAD_SINGLE, _FUNNELED, _SERIALIZED or _MULTIPLE, as MPI reported it.
  int thread_level() const { return thread_level_; }
  bool thread_multiple() const;
  std::string thread_level_name() const;
  // True when this object called MPI_Init_thread (and so will call MPI_Finalize).
  bool owns_mpi() const { return owns_; }

  int world_rank() const;
  int world_size() const;

 private:
  int thread_level_ = 0;
  bool owns_ = false;
};

}  // namespace courier::net
