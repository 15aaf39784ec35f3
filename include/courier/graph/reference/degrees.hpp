#pragma once
#include <cstdint>
#include <vector>

#include "courier/graph/csr.hpp"

namespace courier::graph::reference {

std::vector<std::uint64_t> out_degrees(const Csr& graph);

}  // namespace courier::graph::reference
