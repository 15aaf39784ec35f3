#pragma once
// The root of the AST: a program is functions; a function owns its parameters, body and the symbols
// the checker makes for every name it declares.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "courier/dsl/stmt.hpp"

namespace courier::dsl {

enum class SymbolKind : std::uint8_t {
  Parameter,
  Variable,      // declared by a Declaration (properties included)
  LoopVariable,  // bound by a forall / for / iterateInBFS
};

// One declared name. Expressions point here (NameRef::symbol, PropertyRef::symbol), so two
// variables of the same name in different scopes stay apart.
struct Symbol {
  std::string name;
  Type type;
  SymbolKind kind = SymbolKind::Variable;
  Location location;
  const Stmt* binder = nullptr;  // the loop or declaration that declares it; null for a parameter
  // How many vertex loops enclose the declaration: 0 at the collective level. A scalar declared at
  // 0 and reduced inside a vertex loop is Shared by all its iterations (ReductionTarget::Shared).
  std::uint32_t vertex_depth = 0;
};

struct Parameter {
  Type type;
  std::string name;
  Location location;
  const Symbol* symbol = nullptr;  // set by the checker
};

struct Function {
  std::string name;
  Location location;
  std::vector<Parameter> parameters;
  Block body;
  Type result;                                   // set by the checker: the type of its return values, Void without one
  std::vector<std::unique_ptr<Symbol>> symbols;  // owned here, made by the checker
};

struct Program {
  std::string file;  // as given to the parser, for messages
  std::vector<Function> functions;
};

}  // namespace courier::dsl
