#include "courier/engines/builtin.hpp"

#include "courier/engines/dsl.hpp"
#include "courier/engines/la.hpp"
#include "courier/engines/mailbox.hpp"
#include "courier/engines/seq.hpp"
#include "courier/engines/vertex.hpp"

namespace courier::engines {

void add_builtin_engines(harness::Registry& registry) {
  registry.add(vertex_engine());
  registry.add(mailbox_engine());
  registry.add(la_engine());
  registry.add(dsl_engine());
  registry.add(seq_engine());
}

}  // namespace courier::engines
