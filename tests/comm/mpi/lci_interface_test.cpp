// The rest of LCI's interface (paper 002, issue 19) with one MPI process per rank: receives into
// the caller's buffers, endpoints addressed across ranks, both synchronizer forms. Each test
// makes its own runtime on the mpi transport (lci_interface.hpp says what is checked).
#include "comm/lci_interface.hpp"

#include <gtest/gtest.h>
#include <mpi.h>

#include "courier/net/mpi_device.hpp"

namespace comm = courier::comm;

namespace {

template <class Body>
void on_mpi(bool progress_thread, Body&& body) {
  comm::RuntimeOptions options;
  options.progress_thread = progress_thread;
  comm::Runtime rt(courier::net::make_mpi_device(), options);
  body(rt);
  rt.shutdown();
}

}  // namespace

TEST(CommLciInterfaceOverMpi, ExplicitReceives) {
  on_mpi(true, [](comm::Runtime& rt) { comm::testing::explicit_receives(rt); });
}
TEST(CommLciInterfaceOverMpi, ExplicitReceivesWithExplicitProgress) {
  on_mpi(false, [](comm::Runtime& rt) { comm::testing::explicit_receives(rt); });
}
TEST(CommLciInterfaceOverMpi, EndpointsAddressedAcrossRanks) {
  on_mpi(true, [](comm::Runtime& rt) { comm::testing::cross_endpoints(rt); });
}
TEST(CommLciInterfaceOverMpi, BothSynchronizerForms) {
  on_mpi(true, [](comm::Runtime& rt) { comm::testing::both_synchronizer_forms(rt, 200); });
}
