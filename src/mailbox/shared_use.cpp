#include "courier/mailbox/shared_use.hpp"

#include <algorithm>

#include "courier/core/cancel.hpp"
#include "courier/core/error.hpp"

namespace courier::mailbox::detail {

SharedUse::SharedUse(Untyped& untyped, unsigned threads)
    : untyped_(untyped), votes_(threads, 0), fed_(threads, 0), seen_(threads, 0) {
  if (threads == 0) throw InputError("mailbox: 0 threads; give at least 1");
}

void SharedUse::inside_callback() {
  throw Error(
      "mailbox: a thread's handle (thread(t)) used from a receive callback; callbacks send through the "
      "mailbox they are given");
}

void SharedUse::check_healthy() const {
  if (failed_)
    throw Error("mailbox: another thread of this rank failed (its own error says why); this thread stops too");
}

void SharedUse::end_epoch(unsigned t, bool cancelled) {
  ++epoch_;
  seen_[t] = epoch_;
  cancelled_ = cancelled;
  std::fill(votes_.begin(), votes_.end(), 0);
}

bool SharedUse::test_empty(unsigned t) {
  if (held_here())
    throw Error(
        "mailbox: test_empty or wait_empty called from a receive callback; call them from the thread's own "
        "code, after its sends");
  const std::lock_guard<std::mutex> lock(mutex_);
  check_healthy();
  if (seen_[t] != epoch_) {  // another thread saw the epoch end
    seen_[t] = epoch_;
    if (cancelled_) throw Cancelled();
    return true;
  }
  const Holding holding(*this, t);
  // Callbacks t ran while handing over may have given it work it has not done yet.
  const bool fed = fed_[t] != 0;
  fed_[t] = 0;
  bool may_idle = !fed;
  for (unsigned u = 0; u < votes_.size(); ++u)
    if (u != t && votes_[u] == 0) may_idle = false;
  bool ran_callbacks = false, done = false;
  try {
    done = untyped_.shared_step(may_idle, ran_callbacks);
  } catch (const Cancelled&) {
    stopping_ = true;
    end_epoch(t, true);
    throw;
  } catch (...) {
    failed_ = true;
    throw;
  }
  if (untyped_.stopping()) stopping_ = true;
  votes_[t] = ran_callbacks || fed ? 0 : 1;
  if (done) end_epoch(t, false);
  return done;
}

bool SharedUse::stopping() {
  if (held_here()) return untyped_.stopping();
  if (stopping_.load(std::memory_order_relaxed)) return true;
  std::unique_lock<std::mutex> lock(mutex_, std::try_to_lock);
  if (lock.owns_lock() && untyped_.stopping()) stopping_ = true;
  return stopping_.load(std::memory_order_relaxed);
}

}  // namespace courier::mailbox::detail
