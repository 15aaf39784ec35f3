#include "courier/core/parallel.hpp"

namespace courier {

unsigned default_thread_count() {
  const unsigned n = std::thread::hardware_concurrency();
  return n == 0 ? 1 : n;
}

}  // namespace courier
