#include "courier/harness/fault_injection.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <charconv>
#include <csignal>
#include <cstdlib>
#include <new>
#include <string>

#include "courier/core/error.hpp"

namespace courier::harness {

namespace {

constexpr const char* kVariable = "COURIER_FAIL_ON_RANK";

struct Injection {
  int rank = -1;
  std::string step;
  bool out_of_memory = false;
  bool stop = false;
};

// R:STEP[:oom]; a malformed value is an error rather than a test that silently injects nothing.
Injection parse(std::string_view text) {
  Injection injection;
  const auto colon = text.find(':');
  const auto [end, error] = std::from_chars(text.data(), text.data() + (colon == text.npos ? text.size() : colon), injection.rank);
  if (colon == text.npos || error != std::errc() || end != text.data() + colon || injection.rank < 0)
    throw InputError(fmt::format("{}='{}': expected RANK:STEP, RANK:STEP:oom or RANK:STEP:stop", kVariable, text));
  std::string_view step = text.substr(colon + 1);
  if (step.ends_with(":oom")) {
    injection.out_of_memory = true;
    step.remove_suffix(4);
  } else if (step.ends_with(":stop")) {
    injection.stop = true;
    step.remove_suffix(5);
  }
  injection.step = std::string(step);
  if (std::find(kFaultSteps.begin(), kFaultSteps.end(), step) == kFaultSteps.end())
    throw InputError(fmt::format("{}='{}': '{}' is not a step (the steps: {})", kVariable, text, step,
                                 fmt::join(kFaultSteps, ", ")));
  return injection;
}

}  // namespace

void maybe_fail(int rank, std::string_view step) {
  const char* value = std::getenv(kVariable);
  if (value == nullptr || *value == '\0') return;
  const Injection injection = parse(value);
  if (injection.rank != rank || injection.step != step) return;
  if (injection.out_of_memory) throw std::bad_alloc();
  if (injection.stop) {
    std::raise(SIGSTOP);
    return;
  }
  throw Error(fmt::format("injected failure at step '{}' on rank {} ({})", step, rank, kVariable));
}

std::function<void(std::string_view)> failure_hook(int rank) {
  const char* value = std::getenv(kVariable);
  if (value == nullptr || *value == '\0') return {};
  parse(value);  // a malformed value fails before any rank waits on another
  return [rank](std::string_view step) { maybe_fail(rank, step); };
}

}  // namespace courier::harness
