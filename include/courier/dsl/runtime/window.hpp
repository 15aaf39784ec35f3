#pragma once
// Window: one-sided access to the masters' slots every rank offers of one array, as StarPlat's
// distributed backend reaches a node it does not own: one MPI_Get or MPI_Accumulate per access
// (paper 004, section III; the naive generation's remote reads and reductions). Ranks that share
// an address space (the local transport's threads) reach each other's arrays in place; ranks in
// processes of their own (under mpirun) through an MPI window in a passive-target epoch open for
// the window's life, into which each epoch copies the rank's array (and, for accumulates, out of
// which it copies what landed when the epoch ends): on one node MPI's shared memory, read and
// updated in place; across nodes (or with COURIER_DSL_WINDOW=rma set), MPI_Get and MPI_Accumulate.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <type_traits>
#include <vector>

#include "courier/core/rank.hpp"
#include "courier/dsl/runtime/values.hpp"

namespace courier::vertex {
class Engine;
}

namespace courier::dsl::rt {

class Window {
 public:
  enum class Use : std::uint8_t { gets, accumulates };
  // The element types and operations an accumulate carries, as MPI names them.
  enum class Element : std::uint8_t { u8, i32, i64, u64, f32, f64 };
  enum class Operation : std::uint8_t { min, max, sum, product, logical_or, logical_and };

  // Collective: every rank offers its `count` slots of `element` bytes each at `base`, which must
  // stay where it is for the window's life. Error when the ranks share no address space and are
  // not the ranks of MPI_COMM_WORLD.
  Window(vertex::Engine& engine, void* base, std::size_t element, std::size_t count, Use use = Use::gets);
  ~Window();  // collective (MPI_Win_free), as every rank leaves the function that made it
  Window(const Window&) = delete;
  Window& operator=(const Window&) = delete;

  // Collective, around the accesses of a pulse: the owners' writes before begin_epoch are what the
  // gets read; no owner writes again, or reads what accumulated, before end_epoch, when every
  // rank's accesses are done (and, for accumulates, have landed in the owners' arrays).
  void begin_epoch();
  void end_epoch();
  // Copies the element at `index` of `owner`'s slots into `out`. Any thread of the rank.
  void get(rank_t owner, std::size_t index, void* out) const;
  // Combines `value` into the element at `index` of `owner`'s slots with Op. Any thread.
  template <class Op, class T>
  void accumulate(rank_t owner, std::size_t index, T value) {
    if (!bases_.empty()) {  // in place: one address space, or one node's shared window
      combine_atomic<Op>(reinterpret_cast<T*>(bases_[static_cast<std::size_t>(owner)])[index], value);
      return;
    }
    accumulate_through_mpi(owner, index, &value, element_of<T>(), operation_of<Op>());
  }

 private:
  struct Mpi;
  template <class T>
  static constexpr Element element_of() {
    static_assert(std::is_arithmetic_v<T> && !std::is_same_v<T, bool>, "bool slots are std::uint8_t");
    if constexpr (std::is_floating_point_v<T>) return sizeof(T) == 4 ? Element::f32 : Element::f64;
    if constexpr (std::is_integral_v<T>) {
      if constexpr (sizeof(T) == 1) return Element::u8;
      if constexpr (sizeof(T) == 4) return Element::i32;
      if constexpr (sizeof(T) == 8) return std::is_signed_v<T> ? Element::i64 : Element::u64;
    }
  }
  template <class Op>
  static constexpr Operation operation_of() {
    if constexpr (std::is_same_v<Op, Min>) return Operation::min;
    if constexpr (std::is_same_v<Op, Max>) return Operation::max;
    if constexpr (std::is_same_v<Op, Sum>) return Operation::sum;
    if constexpr (std::is_same_v<Op, Product>) return Operation::product;
    if constexpr (std::is_same_v<Op, Or>) return Operation::logical_or;
    if constexpr (std::is_same_v<Op, And>) return Operation::logical_and;
  }
  void accumulate_through_mpi(rank_t owner, std::size_t index, const void* value, Element element, Operation operation);

  vertex::Engine& engine_;
  std::size_t element_;
  Use use_;
  std::vector<std::byte*> bases_;  // each rank's slots, where this rank reaches them in place
  std::unique_ptr<Mpi> mpi_;
};

}  // namespace courier::dsl::rt
