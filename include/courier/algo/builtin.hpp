#pragma once
// Courier's own registry: the built-in engines (engines/builtin.hpp) and algorithms
// (algo/algorithms.hpp). A program that adds its own copies it and adds to the copy.
#include "courier/harness/registry.hpp"

namespace courier {

const harness::Registry& builtin_registry();

}  // namespace courier
