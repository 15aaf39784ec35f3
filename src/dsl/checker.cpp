#include "courier/dsl/checker.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "courier/dsl/compile_error.hpp"
#include "graph_methods.hpp"
#include "type_rules.hpp"

namespace courier::dsl {

namespace {

// A loop whose body runs per vertex.
struct VertexLoop {
  const Stmt* statement;
  std::string_view keyword;  // for messages: "forall", "for", "iterateInBFS", "iterateInReverse"
  const Symbol* variable;
  bool owns_variable;  // the variable is a vertex of the rank running the body, its edges there
};

std::string at(Location l) { return fmt::format("{}:{}", l.line, l.column); }

class Checker {
 public:
  explicit Checker(Program& program) : program_(program) {}

  void run() {
    std::unordered_map<std::string, Location> names;
    for (Function& f : program_.functions) {
      if (const auto [it, fresh] = names.emplace(f.name, f.location); !fresh) {
        fail(f.location, "expected a function name not used before, found '{}' (a function at {})", f.name,
             at(it->second));
      }
      function(f);
    }
  }

 private:
  template <class... Args>
  [[noreturn]] void fail(Location where, fmt::format_string<Args...> format, Args&&... args) const {
    throw CompileError(program_.file, where, fmt::format(format, std::forward<Args>(args)...));
  }

  // ---- scopes and symbols
  const Symbol* lookup(const std::string& name) const {
    for (auto scope = scopes_.rbegin(); scope != scopes_.rend(); ++scope) {
      if (const auto it = scope->find(name); it != scope->end()) return it->second;
    }
    return nullptr;
  }

  const Symbol* resolve(const std::string& name, Location where) const {
    const Symbol* symbol = lookup(name);
    if (!symbol) fail(where, "expected a declared name, found undeclared '{}'", name);
    return symbol;
  }

  const Symbol* declare(const std::string& name, Type type, SymbolKind kind, Location where, const Stmt* binder) {
    auto& scope = scopes_.back();
    if (const auto it = scope.find(name); it != scope.end()) {
      fail(where, "expected a name not declared in this scope, found '{}' (declared at {})", name,
           at(it->second->location));
    }
    auto symbol = std::make_unique<Symbol>(
        Symbol{name, std::move(type), kind, where, binder, static_cast<std::uint32_t>(loops_.size())});
    const Symbol* raw = symbol.get();
    function_->symbols.push_back(std::move(symbol));
    scope.emplace(name, raw);
    return raw;
  }

  void push_scope() { scopes_.emplace_back(); }
  void pop_scope() { scopes_.pop_back(); }

  // ---- context rules
  bool per_vertex() const { return !loops_.empty(); }

  void require_collective(const Stmt& s, std::string_view what) const {
    if (!per_vertex()) return;
    const VertexLoop& in = loops_.back();
    fail(s.location,
         "expected {} outside vertex loops, found it inside the {} at {} (it is collective: every rank runs it once "
         "for the whole graph, not per vertex)",
         what, in.keyword, at(in.statement->location));
  }

  void require_assignable(const Type& to, const Expr& value) const {
    if (!assignable(to, value)) fail(value.location, "expected {}, found {}", to_string(to), found(value));
  }

  void condition(Expr& e, std::string_view of) {
    value(e);
    if (e.type.kind != TypeKind::Bool) fail(e.location, "expected a bool condition for '{}', found {}", of, found(e));
  }

  // ---- functions and statements
  void function(Function& f) {
    function_ = &f;
    scopes_.clear();
    loops_.clear();
    return_type_.reset();
    push_scope();
    for (Parameter& p : f.parameters) {
      if (p.type.kind == TypeKind::NodeSet) {
        const Symbol* graph = lookup(p.type.graph);
        if (!graph || graph->type.kind != TypeKind::Graph) {
          fail(p.location, "expected the name of an earlier Graph parameter in SetN<...>, found '{}'", p.type.graph);
        }
      }
      p.symbol = declare(p.name, p.type, SymbolKind::Parameter, p.location, nullptr);
    }
    for (Stmt& s : f.body.statements) statement(s);
    f.result = return_type_ ? *return_type_ : Type::of(TypeKind::Void);
    pop_scope();
  }

  void block(Block& b) {
    push_scope();
    for (Stmt& s : b.statements) statement(s);
    pop_scope();
  }

  // A branch of an if gets a scope of its own even when it is not a block.
  void branch(Stmt& s) {
    push_scope();
    statement(s);
    pop_scope();
  }

  void statement(Stmt& s) {
    s.per_vertex = per_vertex();
    if (auto* n = s.as<Block>()) return block(*n);
    if (auto* n = s.as<Declaration>()) return declaration(s, *n);
    if (auto* n = s.as<Assignment>()) return assignment(s, *n);
    if (auto* n = s.as<Reduction>()) return reduction(*n);
    if (auto* n = s.as<If>()) {
      condition(*n->condition, "if");
      branch(*n->then_branch);
      if (n->else_branch) branch(*n->else_branch);
      return;
    }
    if (auto* n = s.as<While>()) {
      condition(*n->condition, "while");
      return block(n->body);
    }
    if (auto* n = s.as<DoWhile>()) {
      block(n->body);
      return condition(*n->condition, "do-while");
    }
    if (auto* n = s.as<Forall>()) return forall(s, *n);
    if (auto* n = s.as<FixedPoint>()) return fixed_point(s, *n);
    if (auto* n = s.as<IterateInBFS>()) return bfs(s, *n);
    if (auto* n = s.as<Return>()) return return_statement(s, *n);
    if (auto* n = s.as<CallStatement>()) return call_statement(s, *n);
    // IterateInReverse is checked with its iterateInBFS; the parser makes no other.
  }

  void declaration(const Stmt& s, Declaration& d) {
    if (d.type.kind == TypeKind::Graph)
      fail(s.location, "expected a variable type, found Graph (a graph can only be a parameter)");
    if (d.type.kind == TypeKind::NodeSet) {
      fail(s.location, "expected a variable type, found {} (a set can only be a parameter)", to_string(d.type));
    }
    if (d.type.is_property()) {
      require_collective(s, "a property declaration");
      if (d.init) {
        fail(d.init->location, "expected no initial value for property '{}' (give it values with g.{}(...)), found {}",
             d.name, d.type.kind == TypeKind::NodeProperty ? "attachNodeProperty" : "attachEdgeProperty",
             to_source(*d.init));
      }
    }
    if (d.init) {
      value(*d.init);
      require_assignable(d.type, *d.init);
    }
    d.symbol = declare(d.name, d.type, SymbolKind::Variable, d.name_location, &s);
  }

  void assignment(const Stmt& s, Assignment& a) {
    Expr& target = *a.target;
    if (auto* name = target.as<NameRef>()) {
      const Symbol* symbol = resolve(name->name, target.location);
      name->symbol = symbol;
      target.type = symbol->type;
      if (symbol->type.is_property()) return property_copy(s, a);
      if (symbol->kind == SymbolKind::LoopVariable) {
        fail(target.location, "expected a variable to assign, found loop variable '{}' (bound at {})", name->name,
             at(symbol->location));
      }
      if (!symbol->type.is_value()) {
        fail(target.location, "expected a variable to assign, found {} '{}'", to_string(symbol->type), name->name);
      }
      if (per_vertex() && symbol->vertex_depth == 0) {
        const VertexLoop& in = loops_.front();
        fail(s.location,
             "expected a reduction (+=, &&=, ||=, Min, ...) to update '{}' inside the {} at {}, found a plain "
             "assignment (declared outside the loop at {}, it is shared by every vertex, which would race to set it)",
             name->name, in.keyword, at(in.statement->location), at(symbol->location));
      }
    } else {
      property_ref(target, *target.as<PropertyRef>());
    }
    value(*a.value);
    require_assignable(target.type, *a.value);
  }

  void property_copy(const Stmt& s, Assignment& a) {
    require_collective(s, "a copy of a whole property");
    Expr& source = *a.value;
    if (auto* name = source.as<NameRef>()) {
      name->symbol = resolve(name->name, source.location);
      source.type = name->symbol->type;
    } else {
      value(source);
    }
    if (!source.as<NameRef>() || source.type != a.target->type) {
      fail(source.location, "expected a property of type {} to copy into '{}', found {}", to_string(a.target->type),
           to_source(*a.target), found(source));
    }
    a.property_copy = true;
  }

  std::string reduction_name(ReductionOp op) const {
    return op == ReductionOp::Min || op == ReductionOp::Max ? std::string(spelling(op))
                                                            : fmt::format("'{}'", spelling(op));
  }

  void reduction(Reduction& r) {
    Expr& target = *r.target;
    const bool min_max = r.op == ReductionOp::Min || r.op == ReductionOp::Max;
    if (auto* name = target.as<NameRef>()) {
      const Symbol* symbol = resolve(name->name, target.location);
      name->symbol = symbol;
      target.type = symbol->type;
      if (r.form == ReductionForm::Tuple) {
        fail(target.location, "expected a property (like nbr.dist) as the first target of a multi-assignment, found {}",
             found(target));
      }
      const bool scalar = symbol->type.is_numeric() || symbol->type.kind == TypeKind::Bool ||
                          (min_max && symbol->type.kind == TypeKind::Node);
      if (!scalar || symbol->kind == SymbolKind::LoopVariable) {
        fail(target.location,
             "expected a property (like v.dist) or a number or bool variable as the target of {}, found {}{} '{}'",
             reduction_name(r.op), symbol->kind == SymbolKind::LoopVariable ? "loop variable " : "",
             to_string(symbol->type), name->name);
      }
      r.scope = per_vertex() && symbol->vertex_depth == 0 ? ReductionTarget::Shared : ReductionTarget::Private;
    } else {
      property_ref(target, *target.as<PropertyRef>());
      r.scope = ReductionTarget::Property;
    }
    const Type& t = target.type;
    switch (r.op) {
      case ReductionOp::Add:
      case ReductionOp::Subtract:
      case ReductionOp::Multiply:
        if (!t.is_numeric())
          fail(target.location, "expected a number to reduce with {}, found {}", reduction_name(r.op), found(target));
        break;
      case ReductionOp::And:
      case ReductionOp::Or:
        if (t.kind != TypeKind::Bool)
          fail(target.location, "expected a bool to reduce with {}, found {}", reduction_name(r.op), found(target));
        break;
      case ReductionOp::Min:
      case ReductionOp::Max:
        if (!t.is_numeric() && t.kind != TypeKind::Node) {
          fail(target.location, "expected a number or a node to reduce with {}, found {}", reduction_name(r.op),
               found(target));
        }
        break;
    }
    value(*r.value);
    require_assignable(t, *r.value);
    for (Assignment& also : r.also) {
      Expr& extra = *also.target;
      const auto* main = target.as<PropertyRef>();
      auto* property = extra.as<PropertyRef>();
      if (property) property_ref(extra, *property);
      if (!property || to_source(*property->element) != to_source(*main->element)) {
        if (!property) value(extra);
        fail(extra.location,
             "expected a property of {} (the element {} updates) as a target of the multi-assignment, found {}",
             to_source(*main->element), spelling(r.op), found(extra));
      }
      value(*also.value);
      require_assignable(extra.type, *also.value);
    }
  }

  void forall(const Stmt& s, Forall& f) {
    const std::string_view keyword = f.parallel ? "forall" : "for";
    check_expr(*f.source);
    const MethodCall* call = f.source->as<MethodCall>();
    if (f.source->type.kind == TypeKind::NodeRange && call) {
      switch (call->resolved) {
        case GraphMethod::Nodes:
          f.domain = DomainKind::Nodes;
          break;
        case GraphMethod::Neighbors:
          f.domain = DomainKind::OutNeighbors;
          break;
        default:
          f.domain = DomainKind::InNeighbors;
          break;
      }
      if (f.domain != DomainKind::Nodes) f.of = call->arguments.front().value.get();
    } else if (f.source->type.kind == TypeKind::NodeSet) {
      f.domain = DomainKind::Set;
    } else {
      fail(f.source->location, "expected g.nodes(), g.neighbors(v), g.nodes_to(v) or a SetN to iterate, found {}",
           found(*f.source));
    }

    bool vertex_loop = true;
    bool owns_variable = true;
    switch (f.domain) {
      case DomainKind::Nodes:
        require_collective(s, fmt::format("a {} over g.nodes()", keyword));
        break;
      case DomainKind::Set:
        if (f.parallel) {
          require_collective(s, "a forall over a set");
        } else {
          vertex_loop = false;  // a loop in order over a few nodes, on every rank alike
          owns_variable = false;
        }
        break;
      default:
        neighbour_source(f, call->method);
        owns_variable = false;
        break;
    }

    if (vertex_loop) loops_.push_back({&s, keyword, nullptr, owns_variable});
    push_scope();
    f.symbol = declare(f.variable, Type::of(TypeKind::Node), SymbolKind::LoopVariable, f.variable_location, &s);
    if (vertex_loop) loops_.back().variable = f.symbol;
    if (f.filter) {
      const Symbol* outer = filter_element_;
      filter_element_ = f.symbol;
      condition(*f.filter, "filter");
      filter_element_ = outer;
    }
    for (Stmt& inner : f.body.statements) statement(inner);
    pop_scope();
    if (vertex_loop) loops_.pop_back();
  }

  // g.neighbors(x) / g.nodes_to(x): x must be a vertex the running rank owns.
  void neighbour_source(const Forall& f, const std::string& method) const {
    if (!per_vertex()) {
      fail(f.source->location,
           "expected a loop over g.{}(...) inside a vertex loop (like forall (v in g.nodes())), found it outside any "
           "(no rank holds the edges of every node)",
           method);
    }
    const auto* name = f.of->as<NameRef>();
    const bool owned = name && std::any_of(loops_.begin(), loops_.end(), [&](const VertexLoop& l) {
                         return l.owns_variable && l.variable == name->symbol;
                       });
    if (owned) return;
    std::string owners;
    for (const VertexLoop& l : loops_) {
      if (!l.owns_variable) continue;
      if (!owners.empty()) owners += ", ";
      owners += l.variable->name;
    }
    fail(f.of->location,
         "expected the variable of an enclosing vertex loop ({}) as the node whose neighbours to visit, found {} (its "
         "edges may be on another rank)",
         owners, found(*f.of));
  }

  void fixed_point(const Stmt& s, FixedPoint& f) {
    require_collective(s, "fixedPoint");
    const Symbol* symbol = lookup(f.variable);
    if (!symbol)
      fail(f.variable_location, "expected a bool variable for fixedPoint, found undeclared '{}'", f.variable);
    if (symbol->type.kind != TypeKind::Bool || symbol->kind == SymbolKind::LoopVariable) {
      fail(f.variable_location, "expected a bool variable for fixedPoint, found {}{} '{}'",
           symbol->kind == SymbolKind::LoopVariable ? "loop variable " : "", to_string(symbol->type), f.variable);
    }
    f.symbol = symbol;
    in_fixed_point_condition_ = true;
    properties_named_ = 0;
    condition(*f.condition, "fixedPoint");
    in_fixed_point_condition_ = false;
    if (properties_named_ == 0) {
      fail(f.condition->location, "expected a condition on node properties (like !modified) for fixedPoint, found {}",
           to_source(*f.condition));
    }
    block(f.body);
  }

  void bfs(const Stmt& s, IterateInBFS& b) {
    require_collective(s, "iterateInBFS");
    check_expr(*b.source);
    const auto* call = b.source->as<MethodCall>();
    if (!call || call->resolved != GraphMethod::Nodes) {
      fail(b.source->location, "expected g.nodes() to iterate in BFS order, found {}", found(*b.source));
    }
    value(*b.root);
    if (b.root->type.kind != TypeKind::Node)
      fail(b.root->location, "expected a node as the BFS's root, found {}", found(*b.root));

    loops_.push_back({&s, "iterateInBFS", nullptr, true});
    push_scope();
    b.symbol = declare(b.variable, Type::of(TypeKind::Node), SymbolKind::LoopVariable, b.variable_location, &s);
    loops_.back().variable = b.symbol;
    for (Stmt& inner : b.body.statements) statement(inner);
    pop_scope();
    loops_.pop_back();

    if (!b.reverse) return;
    Stmt& reverse_statement = *b.reverse;
    reverse_statement.per_vertex = false;
    auto& reverse = *reverse_statement.as<IterateInReverse>();
    loops_.push_back({&reverse_statement, "iterateInReverse", b.symbol, true});
    push_scope();
    scopes_.back().emplace(b.variable, b.symbol);  // the BFS's variable again
    if (reverse.condition) condition(*reverse.condition, "iterateInReverse");
    for (Stmt& inner : reverse.body.statements) statement(inner);
    pop_scope();
    loops_.pop_back();
  }

  void return_statement(const Stmt& s, Return& r) {
    require_collective(s, "return");
    Type type = Type::of(TypeKind::Void);
    if (r.value) {
      value(*r.value);
      type = r.value->type;
    }
    if (!return_type_) {
      return_type_ = type;
      first_return_ = s.location;
      return;
    }
    if (type != *return_type_) {
      fail(r.value ? r.value->location : s.location, "expected a return value of type {} (as returned at {}), found {}",
           to_string(*return_type_), at(first_return_), r.value ? found(*r.value) : "none");
    }
  }

  void call_statement(const Stmt& s, CallStatement& c) {
    check_expr(*c.call);
    const auto* call = c.call->as<MethodCall>();
    if (call->resolved != GraphMethod::AttachNodeProperty && call->resolved != GraphMethod::AttachEdgeProperty) {
      fail(s.location,
           "expected a call with an effect (g.attachNodeProperty or g.attachEdgeProperty), found {} whose value is "
           "unused",
           to_source(*c.call));
    }
    require_collective(s, fmt::format("g.{}", call->method));
  }

  // ---- expressions
  // check_expr, then insist on a value (a number, bool, node or edge, or INF).
  void value(Expr& e) {
    check_expr(e);
    if (e.type.is_value() || e.type.kind == TypeKind::Infinity) return;
    std::string why;
    if (e.type.is_property()) why = fmt::format(" (a whole property: name one element, like v.{})", to_source(e));
    if (e.type.kind == TypeKind::NodeRange) why = " (only forall and for iterate a range)";
    if (e.type.kind == TypeKind::Void) why = " (the call gives no value)";
    fail(e.location, "expected a value, found {}{}", found(e), why);
  }

  void check_expr(Expr& e) {
    if (e.as<IntLiteral>()) {
      const std::int64_t v = e.as<IntLiteral>()->value;
      e.type = Type::of(v >= INT32_MIN && v <= INT32_MAX ? TypeKind::Int : TypeKind::Long);
    } else if (e.as<RealLiteral>()) {
      e.type = Type::of(TypeKind::Double);
    } else if (e.as<BoolLiteral>()) {
      e.type = Type::of(TypeKind::Bool);
    } else if (e.as<InfLiteral>()) {
      e.type = Type::of(TypeKind::Infinity);
    } else if (e.as<NameRef>()) {
      name_ref(e);
    } else if (auto* p = e.as<PropertyRef>()) {
      property_ref(e, *p);
    } else if (auto* u = e.as<Unary>()) {
      unary(e, *u);
    } else if (auto* b = e.as<Binary>()) {
      binary(e, *b);
    } else if (auto* c = e.as<MethodCall>()) {
      method_call(e, *c);
    }
  }

  void name_ref(Expr& e) {
    const std::string name = e.as<NameRef>()->name;
    const Symbol* symbol = resolve(name, e.location);
    if (filter_element_ && symbol->type.kind == TypeKind::NodeProperty) {
      // A bare property in a filter is the loop variable's: rewrite `modified` to `v.modified`.
      ExprPtr element = make_expr(e.location, NameRef{filter_element_->name, filter_element_});
      element->type = Type::of(TypeKind::Node);
      e.node = PropertyRef{std::move(element), name, e.location, symbol};
      e.type = symbol->type.element_type();
      return;
    }
    e.as<NameRef>()->symbol = symbol;
    if (in_fixed_point_condition_ && symbol->type.kind == TypeKind::NodeProperty) {
      e.type = symbol->type.element_type();  // each node's value
      ++properties_named_;
      return;
    }
    e.type = symbol->type;
  }

  void property_ref(Expr& e, PropertyRef& p) {
    value(*p.element);
    const Type& element = p.element->type;
    if (element.kind != TypeKind::Node && element.kind != TypeKind::Edge) {
      fail(p.element->location, "expected a node or an edge before '.{}', found {}", p.property, found(*p.element));
    }
    const std::string owner = to_source(*p.element);
    const Symbol* symbol = lookup(p.property);
    if (!symbol)
      fail(p.property_location, "expected a declared property after '{}.', found undeclared '{}'", owner, p.property);
    if (!symbol->type.is_property()) {
      fail(p.property_location, "expected a property after '{}.', found {} '{}'", owner, to_string(symbol->type),
           p.property);
    }
    const bool on_node = element.kind == TypeKind::Node;
    if (symbol->type.kind != (on_node ? TypeKind::NodeProperty : TypeKind::EdgeProperty)) {
      fail(p.property_location, "expected {0} property after '{1}' ({0}), found {2} '{3}'",
           on_node ? "a node" : "an edge", owner, to_string(symbol->type), p.property);
    }
    p.symbol = symbol;
    e.type = symbol->type.element_type();
  }

  void unary(Expr& e, Unary& u) {
    value(*u.operand);
    const Type& t = u.operand->type;
    if (u.op == UnaryOp::Not && t.kind != TypeKind::Bool) {
      fail(u.operand->location, "expected a bool after '!', found {}", found(*u.operand));
    }
    if (u.op == UnaryOp::Negate && !t.is_numeric() && t.kind != TypeKind::Infinity) {
      fail(u.operand->location, "expected a number after '-', found {}", found(*u.operand));
    }
    e.type = t;
  }

  static bool is_number(const Type& t) { return t.is_numeric() || t.kind == TypeKind::Infinity; }

  void binary(Expr& e, Binary& b) {
    value(*b.left);
    value(*b.right);
    const Type& l = b.left->type;
    const Type& r = b.right->type;
    const std::string_view op = spelling(b.op);
    auto require = [&](const Expr& side, bool ok, std::string_view what, std::string_view which) {
      if (!ok) fail(side.location, "expected {} on the {} of '{}', found {}", what, which, op, found(side));
    };
    switch (b.op) {
      case BinaryOp::Or:
      case BinaryOp::And:
        require(*b.left, l.kind == TypeKind::Bool, "a bool", "left");
        require(*b.right, r.kind == TypeKind::Bool, "a bool", "right");
        e.type = Type::of(TypeKind::Bool);
        return;
      case BinaryOp::Add:
      case BinaryOp::Subtract:
      case BinaryOp::Multiply:
      case BinaryOp::Divide:
        require(*b.left, is_number(l), "a number", "left");
        require(*b.right, is_number(r), "a number", "right");
        e.type = wider(l, r);
        return;
      case BinaryOp::Modulo:
        require(*b.left, l.is_integral(), "an integer", "left");
        require(*b.right, r.is_integral(), "an integer", "right");
        e.type = wider(l, r);
        return;
      case BinaryOp::Less:
      case BinaryOp::LessEqual:
      case BinaryOp::Greater:
      case BinaryOp::GreaterEqual:
        require(*b.left, is_number(l) || l.kind == TypeKind::Node, "a number or a node", "left");
        require(*b.right, is_number(l) ? is_number(r) : r.kind == TypeKind::Node, is_number(l) ? "a number" : "a node",
                "right");
        e.type = Type::of(TypeKind::Bool);
        return;
      case BinaryOp::Equal:
      case BinaryOp::NotEqual: {
        const bool same = is_number(l) ? is_number(r) : l.kind == r.kind;
        if (!same) {
          fail(b.right->location, "expected {} on the right of '{}' to compare with {}, found {}",
               is_number(l) ? "a number" : "a " + to_string(l), op, found(*b.left), found(*b.right));
        }
        e.type = Type::of(TypeKind::Bool);
        return;
      }
    }
  }

  void method_call(Expr& e, MethodCall& c) {
    check_expr(*c.object);
    if (c.object->type.kind != TypeKind::Graph) {
      fail(c.object->location, "expected a Graph before '.{}', found {}", c.method, found(*c.object));
    }
    const MethodSignature* m = find_method(c.method);
    if (!m) fail(c.method_location, "expected a graph method ({}), found '{}'", method_names(), c.method);
    c.resolved = m->method;
    if (m->named_arguments) {
      attach_arguments(c);
    } else {
      if (c.arguments.size() != m->parameters.size()) {
        if (m->parameters.empty()) {
          fail(c.method_location, "expected no arguments for g.{}(), found {}", c.method, c.arguments.size());
        }
        fail(c.method_location, "expected {} argument{} ({}) for g.{}, found {}", m->parameters.size(),
             m->parameters.size() == 1 ? "" : "s", m->parameter_names, c.method, c.arguments.size());
      }
      for (std::size_t i = 0; i < c.arguments.size(); ++i) {
        Argument& a = c.arguments[i];
        if (!a.name.empty()) {
          fail(a.location, "expected a positional argument for g.{}, found named argument '{}'", c.method, a.name);
        }
        value(*a.value);
        if (a.value->type.kind != m->parameters[i]) {
          fail(a.value->location, "expected a {} as argument {} of g.{}, found {}", to_string(m->parameters[i]), i + 1,
               c.method, found(*a.value));
        }
      }
    }
    e.type = Type::of(m->result);
  }

  void attach_arguments(MethodCall& c) {
    const bool nodes = c.resolved == GraphMethod::AttachNodeProperty;
    if (c.arguments.empty()) {
      fail(c.method_location, "expected at least one argument (property = value) for g.{}, found none", c.method);
    }
    for (Argument& a : c.arguments) {
      if (a.name.empty()) {
        fail(a.location, "expected a named argument (property = value) for g.{}, found {}", c.method,
             to_source(*a.value));
      }
      const Symbol* property = resolve(a.name, a.location);
      if (property->type.kind != (nodes ? TypeKind::NodeProperty : TypeKind::EdgeProperty)) {
        fail(a.location, "expected a {} property for g.{}, found {} '{}'", nodes ? "node" : "edge", c.method,
             to_string(property->type), a.name);
      }
      a.property = property;
      value(*a.value);
      require_assignable(property->type.element_type(), *a.value);
    }
  }

  Program& program_;
  Function* function_ = nullptr;
  std::vector<std::unordered_map<std::string, const Symbol*>> scopes_;
  std::vector<VertexLoop> loops_;
  std::optional<Type> return_type_;
  Location first_return_;
  const Symbol* filter_element_ = nullptr;  // checking a loop's filter: bare node properties are its
  bool in_fixed_point_condition_ = false;
  int properties_named_ = 0;
};

}  // namespace

void check(Program& program) { Checker(program).run(); }

}  // namespace courier::dsl
