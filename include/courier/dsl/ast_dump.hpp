#pragma once
// The AST as indented text, one statement per line with its LINE:COLUMN, as `courierc --emit ast`
// prints it. Expressions are shown as source with every nested binary operation parenthesised, so
// the grouping the parser chose is visible; after check(), declared types, resolved domains and
// reduction scopes are shown too.
#include <string>

#include "courier/dsl/program.hpp"

namespace courier::dsl {

std::string dump_ast(const Program& program);

}  // namespace courier::dsl
