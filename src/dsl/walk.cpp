#include "courier/dsl/walk.hpp"

namespace courier::dsl {

void for_each_child(const Stmt& s, const StmtVisitor& visit) {
  auto each = [&](const Block& b) {
    for (const Stmt& inner : b.statements) visit(inner);
  };
  if (const auto* n = s.as<Block>()) {
    each(*n);
  } else if (const auto* n = s.as<If>()) {
    visit(*n->then_branch);
    if (n->else_branch) visit(*n->else_branch);
  } else if (const auto* n = s.as<While>()) {
    each(n->body);
  } else if (const auto* n = s.as<DoWhile>()) {
    each(n->body);
  } else if (const auto* n = s.as<Forall>()) {
    each(n->body);
  } else if (const auto* n = s.as<FixedPoint>()) {
    each(n->body);
  } else if (const auto* n = s.as<IterateInBFS>()) {
    each(n->body);
    if (n->reverse) visit(*n->reverse);
  } else if (const auto* n = s.as<IterateInReverse>()) {
    each(n->body);
  }
}

void for_each_statement(const Stmt& s, const StmtVisitor& visit) {
  visit(s);
  for_each_child(s, [&](const Stmt& inner) { for_each_statement(inner, visit); });
}

void for_each_statement(const Block& b, const StmtVisitor& visit) {
  for (const Stmt& s : b.statements) for_each_statement(s, visit);
}

void for_each_own_expression(const Stmt& s, const ExprVisitor& visit) {
  auto maybe = [&](const ExprPtr& e) {
    if (e) visit(*e);
  };
  if (const auto* n = s.as<Declaration>()) {
    maybe(n->init);
  } else if (const auto* n = s.as<Assignment>()) {
    visit(*n->target);
    visit(*n->value);
  } else if (const auto* n = s.as<Reduction>()) {
    visit(*n->target);
    visit(*n->value);
    for (const Assignment& a : n->also) {
      visit(*a.target);
      visit(*a.value);
    }
  } else if (const auto* n = s.as<If>()) {
    visit(*n->condition);
  } else if (const auto* n = s.as<While>()) {
    visit(*n->condition);
  } else if (const auto* n = s.as<DoWhile>()) {
    visit(*n->condition);
  } else if (const auto* n = s.as<Forall>()) {
    visit(*n->source);
    maybe(n->filter);
  } else if (const auto* n = s.as<FixedPoint>()) {
    visit(*n->condition);
  } else if (const auto* n = s.as<IterateInBFS>()) {
    visit(*n->source);
    visit(*n->root);
  } else if (const auto* n = s.as<IterateInReverse>()) {
    maybe(n->condition);
  } else if (const auto* n = s.as<Return>()) {
    maybe(n->value);
  } else if (const auto* n = s.as<CallStatement>()) {
    visit(*n->call);
  }
}

void for_each_subexpression(const Expr& e, const ExprVisitor& visit) { for_each_subexpression(e, visit, nullptr); }

void for_each_subexpression(const Expr& e, const ExprVisitor& visit, const std::function<bool(const Expr&)>& skip) {
  if (skip && skip(e)) return;
  visit(e);
  if (const auto* n = e.as<PropertyRef>()) {
    for_each_subexpression(*n->element, visit, skip);
  } else if (const auto* n = e.as<Unary>()) {
    for_each_subexpression(*n->operand, visit, skip);
  } else if (const auto* n = e.as<Binary>()) {
    for_each_subexpression(*n->left, visit, skip);
    for_each_subexpression(*n->right, visit, skip);
  } else if (const auto* n = e.as<MethodCall>()) {
    for_each_subexpression(*n->object, visit, skip);
    for (const Argument& a : n->arguments) for_each_subexpression(*a.value, visit, skip);
  }
}

}  // namespace courier::dsl
