#pragma once
// The methods a Graph has, with what they take and give: the checker's one table of them.
#include <string>
#include <string_view>
#include <vector>

#include "courier/dsl/expr.hpp"

namespace courier::dsl {

struct MethodSignature {
  GraphMethod method;
  std::string_view name;
  std::vector<TypeKind> parameters;  // positional, all nodes today
  std::string_view parameter_names;  // for messages: "u, v"
  TypeKind result;                   // Void: only a statement; NodeRange: only a loop iterates it
  bool named_arguments = false;      // attach*: `property = value, ...`, at least one
};

const MethodSignature* find_method(std::string_view name);
// "nodes, neighbors, ..." for a message about an unknown method.
std::string method_names();

}  // namespace courier::dsl
