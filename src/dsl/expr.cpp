#include "courier/dsl/expr.hpp"

#include <fmt/format.h>

namespace courier::dsl {

namespace {

// Binding strength, loosest first; the parser climbs the same levels (parser.cpp).
int precedence(BinaryOp op) {
  switch (op) {
    case BinaryOp::Or:
      return 0;
    case BinaryOp::And:
      return 1;
    case BinaryOp::Equal:
    case BinaryOp::NotEqual:
      return 2;
    case BinaryOp::Less:
    case BinaryOp::LessEqual:
    case BinaryOp::Greater:
    case BinaryOp::GreaterEqual:
      return 3;
    case BinaryOp::Add:
    case BinaryOp::Subtract:
      return 4;
    case BinaryOp::Multiply:
    case BinaryOp::Divide:
    case BinaryOp::Modulo:
      return 5;
  }
  return 0;
}
constexpr int kUnaryPrecedence = 6;
constexpr int kPostfixPrecedence = 7;

int precedence(const Expr& e) {
  if (const auto* b = e.as<Binary>()) return precedence(b->op);
  if (e.as<Unary>()) return kUnaryPrecedence;
  return kPostfixPrecedence;
}

class Printer {
 public:
  explicit Printer(Parentheses parentheses) : parentheses_(parentheses) {}

  std::string print(const Expr& e) const {
    return std::visit([&](const auto& node) { return print_node(node); }, e.node);
  }

 private:
  // `child` where an operand of strength `needed` goes; `right` marks a right operand, which needs
  // parentheses at equal strength too (the operators group to the left).
  std::string operand(const Expr& child, int needed, bool right) const {
    const int p = precedence(child);
    const bool nested_binary = child.as<Binary>() != nullptr;
    const bool wrap = (parentheses_ == Parentheses::Full && nested_binary) || p < needed || (right && p == needed);
    return wrap ? fmt::format("({})", print(child)) : print(child);
  }

  std::string print_node(const IntLiteral& n) const { return fmt::format("{}", n.value); }
  std::string print_node(const RealLiteral& n) const { return n.spelling; }
  std::string print_node(const BoolLiteral& n) const { return n.value ? "True" : "False"; }
  std::string print_node(const InfLiteral&) const { return "INF"; }
  std::string print_node(const NameRef& n) const { return n.name; }
  std::string print_node(const PropertyRef& n) const {
    return operand(*n.element, kPostfixPrecedence, false) + "." + n.property;
  }
  std::string print_node(const Unary& n) const {
    return std::string(spelling(n.op)) + operand(*n.operand, kUnaryPrecedence, false);
  }
  std::string print_node(const Binary& n) const {
    const int p = precedence(n.op);
    return fmt::format("{} {} {}", operand(*n.left, p, false), spelling(n.op), operand(*n.right, p, true));
  }
  std::string print_node(const MethodCall& n) const {
    std::string out = operand(*n.object, kPostfixPrecedence, false) + "." + n.method + "(";
    for (std::size_t i = 0; i < n.arguments.size(); ++i) {
      if (i > 0) out += ", ";
      if (!n.arguments[i].name.empty()) out += n.arguments[i].name + " = ";
      out += print(*n.arguments[i].value);
    }
    return out + ")";
  }

  Parentheses parentheses_;
};

}  // namespace

std::string_view spelling(BinaryOp op) {
  switch (op) {
    case BinaryOp::Or:
      return "||";
    case BinaryOp::And:
      return "&&";
    case BinaryOp::Equal:
      return "==";
    case BinaryOp::NotEqual:
      return "!=";
    case BinaryOp::Less:
      return "<";
    case BinaryOp::LessEqual:
      return "<=";
    case BinaryOp::Greater:
      return ">";
    case BinaryOp::GreaterEqual:
      return ">=";
    case BinaryOp::Add:
      return "+";
    case BinaryOp::Subtract:
      return "-";
    case BinaryOp::Multiply:
      return "*";
    case BinaryOp::Divide:
      return "/";
    case BinaryOp::Modulo:
      return "%";
  }
  return "?";
}

std::string_view spelling(UnaryOp op) { return op == UnaryOp::Not ? "!" : "-"; }

std::string_view spelling(GraphMethod method) {
  switch (method) {
    case GraphMethod::Unknown:
      return "?";
    case GraphMethod::Nodes:
      return "nodes";
    case GraphMethod::Neighbors:
      return "neighbors";
    case GraphMethod::NodesTo:
      return "nodes_to";
    case GraphMethod::GetEdge:
      return "get_edge";
    case GraphMethod::NumNodes:
      return "num_nodes";
    case GraphMethod::NumEdges:
      return "num_edges";
    case GraphMethod::CountOutNbrs:
      return "count_outNbrs";
    case GraphMethod::CountInNbrs:
      return "count_inNbrs";
    case GraphMethod::IsAnEdge:
      return "is_an_edge";
    case GraphMethod::AttachNodeProperty:
      return "attachNodeProperty";
    case GraphMethod::AttachEdgeProperty:
      return "attachEdgeProperty";
  }
  return "?";
}

std::string to_source(const Expr& expr, Parentheses parentheses) { return Printer(parentheses).print(expr); }

}  // namespace courier::dsl
