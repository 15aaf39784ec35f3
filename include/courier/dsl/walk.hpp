#pragma once
// Walking the AST without writing out every alternative: the statements a statement holds, and the
// expressions it holds itself. What the analyses, dumps and code generation share.
#include <functional>

#include "courier/dsl/stmt.hpp"

namespace courier::dsl {

using StmtVisitor = std::function<void(const Stmt&)>;
using ExprVisitor = std::function<void(const Expr&)>;

// The statements directly inside `s`: a block's statements, a loop's body, an if's branches, an
// iterateInBFS's body and then its iterateInReverse.
void for_each_child(const Stmt& s, const StmtVisitor& visit);
// `s` and every statement inside it, parents before children, in source order.
void for_each_statement(const Stmt& s, const StmtVisitor& visit);
void for_each_statement(const Block& b, const StmtVisitor& visit);
// The expressions `s` holds itself (not those of the statements inside it): conditions, a loop's
// source and filter, a declaration's initial value, the targets and values of an assignment or a
// reduction (with its `also` assignments), a call, a return value.
void for_each_own_expression(const Stmt& s, const ExprVisitor& visit);
// `e` and every expression inside it, parents first.
void for_each_subexpression(const Expr& e, const ExprVisitor& visit);
// The same, leaving out every subexpression for which skip() holds, and what lies below it.
void for_each_subexpression(const Expr& e, const ExprVisitor& visit, const std::function<bool(const Expr&)>& skip);

}  // namespace courier::dsl
