#pragma once
// Courier's own engines, registered in the order `courier list` shows them.
#include "courier/harness/registry.hpp"

namespace courier::engines {

void add_builtin_engines(harness::Registry& registry);

}  // namespace courier::engines
