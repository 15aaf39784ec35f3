#include "local_ranks.hpp"

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <new>

#include <fmt/format.h>

#include "courier/comm/local_world.hpp"
#include "courier/dist/distributed_load.hpp"

namespace courier::cli {

namespace {

[[noreturn]] void end_run(int rank, int ranks, const char* what) {
  std::fflush(stdout);
  fmt::print(stderr, "courier: error (rank {} of {}): {}\n", rank, ranks, what);
  std::fflush(stderr);
  std::_Exit(1);  // the other ranks' threads may be blocked for good: no unwinding, no joins
}

}  // namespace

void run_local_ranks(int ranks, const std::function<void(comm::Runtime&)>& body, comm::RuntimeOptions options) {
  comm::run_local(
      ranks,
      [&](comm::Runtime& runtime) {
        try {
          body(runtime);
        } catch (const dist::LoadError&) {
          throw;  // agreed: every rank throws it and shuts down with the others
        } catch (const std::bad_alloc&) {
          end_run(runtime.rank(), runtime.size(), "out of memory (std::bad_alloc)");
        } catch (const std::exception& e) {
          end_run(runtime.rank(), runtime.size(), e.what());
        } catch (...) {
          end_run(runtime.rank(), runtime.size(), "unknown error");
        }
      },
      options);
}

}  // namespace courier::cli
