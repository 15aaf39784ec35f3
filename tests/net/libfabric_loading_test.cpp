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
namespace libfabric_loading_test {

std::string mapped_files() {
  std::ifstream maps("/proc/self/maps");
  std::stringstream text;
  text << maps.rdbuf();
  return text.str();
}

#ifdef COURIER_HAVE_OFI
// Keeps the ofi transport's code in this program (its device is made in tests/net/ofi): a
// reference the compiler cannot drop, so the linker takes the ofi objects out of the library.
[[maybe_unused]] auto* volatile kept_ofi_code = &make_ofi_device;
#endif

TEST(LibfabricLoading, AProgramWithTheTransportsStartsWithoutIt) {
  LocalFabric fabric(2);  // the local transport needs no libfabric either
  const std::string maps = mapped_files();
  ASSERT_NE(maps.find("libc.so"), std::string::npos) << "no mapped files read";
  EXPECT_EQ(maps.find("/libfabric.so"), std::string::npos) << maps;
}

}  // namespace libfabric_loading_test
}  // namespace courier::net
