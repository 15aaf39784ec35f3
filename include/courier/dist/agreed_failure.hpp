#pragma once
// Agreeing on a failure that happens on one rank between collectives (an exception in the
// transforms, the shuffle or building the LocalGraph, out of memory): the other ranks would wait
// for that rank in their next exchange forever. Inside `agreeing_on_failure` every message carries
// a status byte; a rank that failed makes the exchange the others wait in with its error instead
// of data, and every rank, seeing it there, throws the same LoadError. A closing exchange catches
// a failure after the step's last one.
#include <string_view>

#include "courier/core/error.hpp"
#include "courier/dist/collective.hpp"
#include "courier/dist/distributed_load.hpp"

namespace courier::dist {

// Thrown on every rank, from the same exchange, when a rank failed inside agreeing_on_failure.
class AgreedFailure : public LoadError {
 public:
  using LoadError::LoadError;
};

// `collective` with every message tagged: its exchanges throw AgreedFailure when a rank sent a
// failure instead of data.
Collective failure_aware(const Collective& collective);

// This rank failed inside `stage`: sends "STAGE failed on rank R: WHAT" in place of its next
// exchange and throws the AgreedFailure every rank throws (the lowest failing rank's message).
[[noreturn]] void announce_failure(const Collective& collective, std::string_view stage, std::string_view what);

// Every rank is past `stage`'s last exchange: throws AgreedFailure if any rank failed after it.
void close_stage(const Collective& aware);

// Runs step(aware) on every rank; if it throws on any rank, every rank throws the same
// AgreedFailure. Collective.
template <class Step>
auto agreeing_on_failure(const Collective& collective, std::string_view stage, Step&& step) {
  const Collective aware = failure_aware(collective);
  try {
    auto result = step(aware);
    close_stage(aware);
    return result;
  } catch (const AgreedFailure&) {
    throw;  // already agreed, in an exchange
  } catch (...) {
    announce_failure(collective, stage, describe_current_exception());
  }
}

}  // namespace courier::dist
