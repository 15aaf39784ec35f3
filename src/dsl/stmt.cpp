#include "courier/dsl/stmt.hpp"

namespace courier::dsl {

std::string_view spelling(ReductionOp op) {
  switch (op) {
    case ReductionOp::Add:
      return "+=";
    case ReductionOp::Subtract:
      return "-=";
    case ReductionOp::Multiply:
      return "*=";
    case ReductionOp::And:
      return "&&=";
    case ReductionOp::Or:
      return "||=";
    case ReductionOp::Min:
      return "Min";
    case ReductionOp::Max:
      return "Max";
  }
  return "?";
}

}  // namespace courier::dsl
