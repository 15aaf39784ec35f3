// The memory check refuses what cannot fit, with the estimate and the machine's memory.
#include "courier/core/memory.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "courier/core/error.hpp"

namespace memory_test {

namespace {

using namespace courier;

TEST(Memory, WhatFitsPassesAndWhatCannotIsRefusedWithTheEstimate) {
  ASSERT_GT(physical_memory_bytes(), 0u);
  EXPECT_NO_THROW(check_memory("a small step", 1 << 20));
  ::unsetenv("COURIER_IGNORE_MEMORY_ESTIMATE");
  try {
    check_memory("generating kron:40", physical_memory_bytes() * 4);
    FAIL() << "four times the machine passed";
  } catch (const InputError& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find("generating kron:40 needs about"), std::string::npos) << message;
    EXPECT_NE(message.find("this machine has"), std::string::npos) << message;
  }
  ::setenv("COURIER_IGNORE_MEMORY_ESTIMATE", "1", 1);
  EXPECT_NO_THROW(check_memory("generating kron:40", physical_memory_bytes() * 4));
  ::unsetenv("COURIER_IGNORE_MEMORY_ESTIMATE");
}

TEST(Memory, SizesReadAsPeopleWriteThem) {
  EXPECT_EQ(format_bytes(512), "512 bytes");
  EXPECT_EQ(format_bytes(3u << 20), "3.0 MiB");
  EXPECT_EQ(format_bytes(std::uint64_t{256} << 40), "256.0 TiB");
}

}  // namespace

}  // namespace memory_test
