// The analysis as text, for `courierc --emit analysis`: one line per finding, with its place and why.
#include <fmt/format.h>

#include "courier/dsl/analysis.hpp"

namespace courier::dsl {

namespace {

std::string at(Location l) { return fmt::format("{}:{}", l.line, l.column); }

// Adds `item` to a list written "a, b, c".
void add(std::string& list, std::string_view item) {
  if (!list.empty()) list += ", ";
  list += item;
}

std::string names(const std::vector<const Symbol*>& symbols) {
  std::string out;
  for (const Symbol* s : symbols) add(out, s->name);
  return out;
}

std::string places(const std::vector<Location>& locations) {
  std::string out;
  for (Location l : locations) add(out, at(l));
  return out;
}

std::string places(const std::vector<const Stmt*>& statements) {
  std::string out;
  for (const Stmt* s : statements) add(out, at(s->location));
  return out;
}

// A statement in a few words: "forall (v in g.nodes())", "reduction nbr.dist Min".
std::string describe(const Stmt& s) {
  if (const auto* n = s.as<Forall>()) {
    return fmt::format("{} ({} in {})", n->parallel ? "forall" : "for", n->variable, to_source(*n->source));
  }
  if (const auto* n = s.as<Reduction>()) return fmt::format("reduction {} {}", to_source(*n->target), spelling(n->op));
  if (const auto* n = s.as<Assignment>()) return fmt::format("assignment to {}", to_source(*n->target));
  if (const auto* n = s.as<Declaration>()) return fmt::format("declaration of {}", n->name);
  if (const auto* n = s.as<FixedPoint>())
    return fmt::format("fixedPoint until ({} : {})", n->variable, to_source(*n->condition));
  if (const auto* n = s.as<IterateInBFS>())
    return fmt::format("iterateInBFS ({} from {})", n->variable, to_source(*n->root));
  if (s.as<IterateInReverse>()) return "iterateInReverse";
  if (const auto* n = s.as<If>()) return fmt::format("if ({})", to_source(*n->condition));
  if (const auto* n = s.as<While>()) return fmt::format("while ({})", to_source(*n->condition));
  if (s.as<DoWhile>()) return "do-while";
  if (s.as<Return>()) return "return";
  if (const auto* n = s.as<CallStatement>()) return fmt::format("call {}", to_source(*n->call));
  return "block";
}

std::string_view pulse_name(PulseKind kind) {
  switch (kind) {
    case PulseKind::VertexLoop:
      return "";
    case PulseKind::BfsLevel:
      return " (each BFS level)";
    case PulseKind::ReverseLevel:
      return " (each level, deepest first)";
    case PulseKind::Convergence:
      return " (its test, after each iteration)";
  }
  return "";
}

void exclusive(std::string& out, const FunctionAnalysis& fa) {
  out += "Reduction-exclusive statements (Definition 1, Lemma 1):\n";
  if (fa.exclusive.empty()) out += "  none\n";
  for (const ExclusiveStatement& x : fa.exclusive) {
    std::string why;
    if (x.enclosing) {
      why = fmt::format("Lemma 1: inside the reduction-exclusive statement at {}", at(x.enclosing->location));
    } else if (x.statement == x.reduction) {
      why = "Definition 1: it is a reduction, and reaches no other";
    } else {
      why = fmt::format(
          "Definition 1: it reaches one reduction (at {}), and what that reduces ({}) is accessed "
          "nowhere else in it",
          at(x.reduction->location), names(x.elements));
    }
    fmt::format_to(std::back_inserter(out), "  {} {}: {}\n", at(x.statement->location), describe(*x.statement), why);
  }
  if (fa.not_exclusive.empty()) return;
  out += "Not reduction-exclusive:\n";
  for (const NotExclusive& n : fa.not_exclusive) {
    std::string why;
    if (n.reductions.size() > 1) {
      why = fmt::format("it reaches {} reductions (at {})", n.reductions.size(), places(n.reductions));
    } else {
      why = fmt::format("{} is {} at {}, outside its one reduction (at {})", n.conflict->name,
                        n.conflict_updates ? "updated" : "read", at(n.conflict_location),
                        at(n.reductions.front()->location));
    }
    fmt::format_to(std::back_inserter(out), "  {} {}: {}\n", at(n.statement->location), describe(*n.statement), why);
  }
}

void cache_safety(std::string& out, const FunctionAnalysis& fa) {
  out += "Opportunistic-cache-safe properties (Definition 2):\n";
  if (fa.properties.empty()) out += "  none (no properties)\n";
  for (const CacheSafety& c : fa.properties) {
    std::string what;
    if (!c.safe) {
      std::string updates;
      for (const CacheSafety::Update& u : c.updates) {
        add(updates, fmt::format("{} (in the statement at {})", at(u.location), at(u.in->location)));
      }
      what = fmt::format("not safe: updated inside reduction-exclusive statements at {}", updates);
    } else if (c.reads.empty()) {
      what = "safe: not updated in any reduction-exclusive statement (nor read in one)";
    } else {
      what = fmt::format(
          "safe: not updated in any reduction-exclusive statement; its reads in them (at {}) may be "
          "cached until the pulse ends",
          places(c.reads));
    }
    fmt::format_to(std::back_inserter(out), "  {} {}: {}\n", to_string(c.property->type), c.property->name, what);
  }
}

void pulses(std::string& out, const FunctionAnalysis& fa) {
  out += "Pulses (Definition 3):\n";
  if (fa.pulses.empty()) out += "  none\n";
  for (const Pulse& p : fa.pulses) {
    std::string what;
    if (p.kind == PulseKind::Convergence) {
      what = fmt::format("all ranks agree whether {} holds on every node ({})",
                         to_source(*p.statement->as<FixedPoint>()->condition), names(p.synchronised));
    } else if (p.reductions.empty()) {
      what = "nothing to reduce";
    } else if (p.aggregated) {
      what = fmt::format("aggregated (reduction-exclusive): one bulk reduction at its end of {} (from {})",
                         names(p.synchronised), places(p.reductions));
    } else {
      what = fmt::format(
          "not aggregated (not reduction-exclusive): the reductions at {} are synchronised where they "
          "run ({})",
          places(p.reductions), names(p.synchronised));
    }
    if (!p.assigned.empty()) what += fmt::format("; assigns {}", names(p.assigned));
    if (!p.remote_writes.empty()) {
      what += fmt::format("; assigns properties of nodes other ranks may own at {}", places(p.remote_writes));
    }
    const std::string repeated =
        p.repeated_by ? fmt::format(", repeated by the {} at {}", describe(*p.repeated_by), at(p.repeated_by->location))
                      : "";
    fmt::format_to(std::back_inserter(out), "  {} {}{}{}: {}\n", at(p.statement->location), describe(*p.statement),
                   pulse_name(p.kind), repeated, what);
  }
}

void hoisting(std::string& out, const FunctionAnalysis& fa) {
  out += "Hoisted out of neighbour and vertex loops (loop-invariant expressions):\n";
  if (fa.hoisted.empty() && fa.invariants.empty()) out += "  none\n";
  for (const Hoisted& h : fa.hoisted) {
    const auto& loop = *h.loop->as<Forall>();
    const std::string what =
        h.kind == HoistKind::PerNeighbour
            ? fmt::format(
                  "one value per {}: computed once per node before the pulse of the loop at {}, {}, "
                  "instead of once per edge",
                  loop.variable, at(h.pulse->location),
                  fa.find_split(*h.loop) ? "read at masters only (a split pull)" : "mirrors refreshed") +
                  (h.computed_in ? fmt::format("; computed by the loop at {}, not in a pass of its own (fused)",
                                               at(h.computed_in->location))
                                 : std::string())
            : fmt::format("one value per {}: computed once before the loop at {}, instead of once per edge",
                          to_source(*loop.of), at(h.loop->location));
    fmt::format_to(std::back_inserter(out), "  {} {}: {}\n", at(h.expression->location), to_source(*h.expression),
                   what);
  }
  for (const Invariant& i : fa.invariants)
    fmt::format_to(std::back_inserter(out),
                   "  {} {}: of no node: computed once before the loop at {}, instead of once per node\n",
                   at(i.expression->location), to_source(*i.expression), at(i.pulse->location));
  if (fa.not_hoisted.empty()) return;
  out += "Not hoisted:\n";
  for (const NotHoisted& n : fa.not_hoisted) {
    const std::string why =
        n.written ? fmt::format("{} is written at {} in the vertex loop", n.written->name, at(n.written_at))
                  : std::string("an integer division: nodes the loop never reaches could divide by zero");
    fmt::format_to(std::back_inserter(out), "  {} {}: {}\n", at(n.expression->location), to_source(*n.expression), why);
  }
}

void split_pulls(std::string& out, const FunctionAnalysis& fa) {
  out += "Split pulls (in-edge sums over each rank's own edges):\n";
  if (fa.split_pulls.empty()) out += "  none\n";
  for (const SplitPull& p : fa.split_pulls)
    fmt::format_to(std::back_inserter(out),
                   "  {} {}: {} += {} summed where the edges are before the loop at {}, mirrors' sums added into "
                   "their masters (one bulk reduction)\n",
                   at(p.loop->location), describe(*p.loop), p.accumulator->name, to_source(*p.term),
                   at(p.pulse->location));
  if (fa.not_split.empty()) return;
  out += "Not split:\n";
  for (const NotSplit& n : fa.not_split)
    fmt::format_to(std::back_inserter(out), "  {} {}: {} (at {})\n", at(n.loop->location), describe(*n.loop), n.reason,
                   at(n.at));
}

void bottom_up(std::string& out, const FunctionAnalysis& fa) {
  out += "Bottom-up steps (pushes a round may run as pulls):\n";
  if (fa.bottom_up.empty()) out += "  none\n";
  for (const BottomUp& b : fa.bottom_up)
    fmt::format_to(std::back_inserter(out),
                   "  {} {}: every node offered the same {} at {}; a round may instead pull into each node the offer "
                   "would move from its first in-neighbour flagged in {}\n",
                   at(b.pulse->location), describe(*b.pulse), to_source(*b.reduction->as<Reduction>()->value),
                   at(b.reduction->location), b.flag->name);
}

void moves(std::string& out, const FunctionAnalysis& fa) {
  out += "Property copies moved (the source dead after the copy):\n";
  if (fa.moves.empty()) out += "  none\n";
  for (const PropertyMove& m : fa.moves) {
    const auto& a = *m.copy->as<Assignment>();
    const std::string source = to_source(*a.value);
    const std::string next = m.rewritten_by ? fmt::format("every node's {} is written at {} before it is read again",
                                                          source, at(m.rewritten_by->location))
                                            : fmt::format("{} is not read again", source);
    fmt::format_to(std::back_inserter(out), "  {} {} = {}: {}; the two exchange their values\n", at(m.copy->location),
                   to_source(*a.target), source, next);
  }
  if (fa.not_moved.empty()) return;
  out += "Copied:\n";
  for (const NotMoved& n : fa.not_moved) {
    const auto& a = *n.copy->as<Assignment>();
    fmt::format_to(std::back_inserter(out), "  {} {} = {}: {} (at {})\n", at(n.copy->location), to_source(*a.target),
                   to_source(*a.value), n.reason, at(n.at));
  }
}

}  // namespace

std::string format_analysis(const Program& program, const Analysis& analysis) {
  std::string out;
  for (const FunctionAnalysis& fa : analysis.functions) {
    if (!out.empty()) out += "\n";
    fmt::format_to(std::back_inserter(out), "Function {} ({}:{})\n", fa.function->name, program.file,
                   at(fa.function->location));
    exclusive(out, fa);
    cache_safety(out, fa);
    pulses(out, fa);
    hoisting(out, fa);
    split_pulls(out, fa);
    bottom_up(out, fa);
    moves(out, fa);
  }
  return out;
}

}  // namespace courier::dsl
