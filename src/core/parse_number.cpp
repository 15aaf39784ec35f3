#include "courier/core/parse_number.hpp"

namespace courier {

const char* describe(ParseStatus status) {
  switch (status) {
    case ParseStatus::ok: return "is fine";
    case ParseStatus::not_a_number: return "is not a number";
    case ParseStatus::negative: return "is negative";
    case ParseStatus::out_of_range: return "is too large";
  }
  return "?";
}

}  // namespace courier
