#pragma once
// Which values fit which types, what arithmetic yields, and how a found expression reads in a
// message. Numbers widen int -> long -> float -> double, and a double narrows to a float (it rounds);
// a literal integer fits any number it is small enough for and a literal real fits float and double;
// INF fits any number.
#include <string>

#include "courier/dsl/expr.hpp"

namespace courier::dsl {

// The type of `a OP b` for arithmetic operands (INF takes the other's type).
Type wider(const Type& a, const Type& b);
// May `value` (already typed) be stored in a `to`?
bool assignable(const Type& to, const Expr& value);
// "int x", "node nbr", "propNode<int> dist", "double 0.5 * v.rank": what a message says was found.
std::string found(const Expr& e);

}  // namespace courier::dsl
