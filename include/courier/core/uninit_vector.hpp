#pragma once
// UninitVector<T>: a std::vector whose resize(n) leaves new elements of trivial types unwritten,
// so an array about to be filled in parallel is first touched by the threads that fill it (a
// value-initialising resize zeroes every page on one thread first: 57 ms for 126 MB).
#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

namespace courier {

template <class T>
struct DefaultInitAllocator : std::allocator<T> {
  template <class U>
  struct rebind {
    using other = DefaultInitAllocator<U>;
  };
  DefaultInitAllocator() = default;
  template <class U>
  DefaultInitAllocator(const DefaultInitAllocator<U>&) noexcept {}

  template <class U>
  void construct(U* p) noexcept(std::is_nothrow_default_constructible_v<U>) {
    ::new (static_cast<void*>(p)) U;  // default-initialised: no write for trivial types
  }
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    std::allocator_traits<std::allocator<T>>::construct(static_cast<std::allocator<T>&>(*this), p,
                                                        std::forward<Args>(args)...);
  }
};

template <class T>
using UninitVector = std::vector<T, DefaultInitAllocator<T>>;

}  // namespace courier
