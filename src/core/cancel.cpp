#include "courier/core/cancel.hpp"

#include <atomic>

namespace courier {
namespace {

std::atomic<bool> requested{false};
static_assert(std::atomic<bool>::is_always_lock_free, "a signal handler sets it");

}  // namespace

void request_cancellation() noexcept { requested.store(true, std::memory_order_relaxed); }
bool cancellation_requested() noexcept { return requested.load(std::memory_order_relaxed); }
void clear_cancellation() noexcept { requested.store(false, std::memory_order_relaxed); }

}  // namespace courier
