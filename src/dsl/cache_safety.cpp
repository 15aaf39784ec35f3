// Definition 2 of paper 004: opportunistic-cache-safe properties.
#include <algorithm>

#include "analysis_steps.hpp"

namespace courier::dsl {

void find_cache_safety(const Function& f, FunctionAnalysis& out) {
  for (const auto& symbol : f.symbols) {
    if (symbol->type.is_property()) out.properties.push_back({symbol.get(), true, {}, {}});
  }
  // Every statement inside a reduction-exclusive one is listed itself (Lemma 1), so looking at
  // each listed statement's own accesses sees each access once.
  for (const ExclusiveStatement& x : out.exclusive) {
    for (const Access& a : own_accesses(*x.statement)) {
      auto it = std::find_if(out.properties.begin(), out.properties.end(),
                             [&](const CacheSafety& c) { return c.property == a.symbol; });
      if (it == out.properties.end()) continue;
      if (!a.update) {
        it->reads.push_back(a.location);
        continue;
      }
      it->safe = false;
      it->updates.push_back({a.location, x.enclosing ? x.enclosing : x.statement});
    }
  }
}

}  // namespace courier::dsl
