#include "courier/core/error.hpp"

#include <gtest/gtest.h>

#include <new>
#include <string>

namespace error_test {

TEST(Error, InputErrorNamesFileAndLine) {
  try {
    courier::throw_input_error("g.el", 7, "expected a vertex id, found 'x'");
    FAIL() << "no exception";
  } catch (const courier::InputError& e) {
    EXPECT_STREQ(e.what(), "g.el:7: expected a vertex id, found 'x'");
  }
  EXPECT_THROW(courier::throw_input_error("g.csr", 0, "bad magic"), courier::InputError);
}

namespace {
template <class Throw>
std::string described(Throw&& throw_it) {
  try {
    throw_it();
  } catch (...) {
    return courier::describe_current_exception();
  }
  return "nothing thrown";
}
}  // namespace

TEST(Error, DescribeCurrentExceptionSaysWhatWasThrown) {
  EXPECT_EQ(described([] { throw courier::InputError("g.el:3: bad id"); }), "g.el:3: bad id");
  EXPECT_EQ(described([] { throw std::bad_alloc(); }), "out of memory (std::bad_alloc)");
  EXPECT_EQ(described([] { throw 42; }), "unknown error");
  EXPECT_EQ(courier::describe_current_exception(), "");  // not inside a catch block
}

}  // namespace error_test
