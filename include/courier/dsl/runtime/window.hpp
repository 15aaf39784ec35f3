#pragma once
// Window: one-sided reads of the masters another rank holds of one property, as StarPlat's
// distributed backend reads a node it does not own: one MPI_Get per access (paper 004, section III;
// the naive generation's remote reads). Ranks that share an address space (the local transport's
// threads) read each other's masters in place; ranks in processes of their own (under mpirun)
// through an MPI window in a passive-target epoch open for the window's life, into which each
// epoch copies the rank's masters.
#include <cstddef>
#include <memory>
#include <vector>

#include "courier/core/rank.hpp"

namespace courier::vertex {
class Engine;
}

namespace courier::dsl::rt {

class Window {
 public:
  // Collective: every rank offers its `count` masters of `element` bytes each at `base`, which
  // must stay where it is for the window's life. Error when the ranks share no address space and
  // are not the ranks of MPI_COMM_WORLD.
  Window(vertex::Engine& engine, const void* base, std::size_t element, std::size_t count);
  ~Window();  // collective (MPI_Win_free), as every rank leaves the function that made it
  Window(const Window&) = delete;
  Window& operator=(const Window&) = delete;

  // Collective, around the gets of a pulse: the owners' writes before begin_epoch are what the gets
  // read, and no owner writes again before end_epoch, when every rank's gets are done.
  void begin_epoch();
  void end_epoch();
  // Copies the element at `index` of `owner`'s masters into `out`. Any thread of the rank.
  void get(rank_t owner, std::size_t index, void* out) const;
  // Whether gets go through MPI (false: in place).
  bool through_mpi() const;

 private:
  struct Mpi;
  vertex::Engine& engine_;
  std::size_t element_;
  std::vector<const std::byte*> bases_;  // shared address space: each rank's masters
  std::unique_ptr<Mpi> mpi_;
};

}  // namespace courier::dsl::rt
