#include "courier/vertex/access.hpp"

namespace courier::vertex {

bool may_be_mirror(dist::Policy policy, At at) {
  switch (at) {
    case At::none:
    case At::master: return false;
    case At::source: return policy != dist::Policy::oec;
    case At::destination: return policy != dist::Policy::iec;
    case At::any: return true;
  }
  return true;
}

SyncPlan sync_plan(dist::Policy policy, rank_t ranks, Access access) {
  if (ranks <= 1) return {};  // one rank has no mirrors
  return {may_be_mirror(policy, access.written), may_be_mirror(policy, access.read)};
}

}  // namespace courier::vertex
