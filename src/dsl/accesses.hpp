#pragma once
// What statements read and update, by name: the facts the three analyses are made of.
#include <set>
#include <vector>

#include "courier/dsl/program.hpp"

namespace courier::dsl {

struct Access {
  const Symbol* symbol = nullptr;
  Location location;
  bool update = false;
};

// The variables and properties `s` reads or updates in its own expressions (not in the
// statements inside it). Assigned and reduced targets are updates, and so are the properties an
// attach call sets; everything else named is read.
std::vector<Access> own_accesses(const Stmt& s);

// What `s` and every statement inside it update.
std::set<const Symbol*> updated_in(const Stmt& s);

// Does the reduction cross ranks (a property element or a shared scalar)?
bool is_reduction_statement(const Stmt& s);
// The reduction statements in `s`, itself included, in source order.
std::vector<const Stmt*> reductions_in(const Stmt& s);
// What a reduction reduces: its target's property or variable, then its multi-assignment's others.
std::vector<const Symbol*> reduced_elements(const Reduction& r);

}  // namespace courier::dsl
