#pragma once
// The whole command line of `courier`, without CLI11's header: what main() and the tests call.
#include "courier/harness/registry.hpp"

namespace courier::cli {

// The command line over `registry`: what main() runs with courier::builtin_registry(), and what a
// test runs with a registry of its own. Returns the exit status.
int main(int argc, const char* const* argv, const harness::Registry& registry);

}  // namespace courier::cli
