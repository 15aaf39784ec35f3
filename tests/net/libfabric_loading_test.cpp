// libfabric is loaded when the first ofi device is made, not when a program that links the
// transports starts: its PSM providers' load-time clock calibration (0.2 s of sleeps here) would
// otherwise fall on every courier process.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "courier/net/local.hpp"
#ifdef COURIER_HAVE_OFI
#include "courier/net/ofi_device.hpp"
#endif

namespace courier::net {
namespace {

std::string mapped_files() {
  std::ifstream maps("/proc/self/maps");
  std::stringstream text;
  text << maps.rdbuf();
  return text.str();
}

TEST(LibfabricLoading, AProgramWithTheTransportsStartsWithoutIt) {
#ifdef COURIER_HAVE_OFI
  // The ofi transport's code is in this program (its device is made in tests/net/ofi).
  auto* make = &make_ofi_device;
  ASSERT_NE(make, nullptr);
#endif
  LocalFabric fabric(2);  // the local transport needs no libfabric either
  const std::string maps = mapped_files();
  ASSERT_NE(maps.find("libc.so"), std::string::npos) << "no mapped files read";
  EXPECT_EQ(maps.find("/libfabric.so"), std::string::npos) << maps;
}

}  // namespace
}  // namespace courier::net
