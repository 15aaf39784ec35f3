#include "courier/core/error.hpp"

#include <gtest/gtest.h>

TEST(Error, InputErrorNamesFileAndLine) {
  try {
    courier::throw_input_error("g.el", 7, "expected a vertex id, found 'x'");
    FAIL() << "no exception";
  } catch (const courier::InputError& e) {
    EXPECT_STREQ(e.what(), "g.el:7: expected a vertex id, found 'x'");
  }
  EXPECT_THROW(courier::throw_input_error("g.csr", 0, "bad magic"), courier::InputError);
}
