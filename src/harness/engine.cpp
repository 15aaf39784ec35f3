#include "courier/harness/engine.hpp"

namespace courier::harness {

void Engine::check(const Algorithm&, const RunSpec&, const Launch&) const {}

}  // namespace courier::harness
