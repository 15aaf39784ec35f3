#include "local_ranks.hpp"

#include "courier/comm/local_world.hpp"
#include "launcher.hpp"

namespace courier::cli {

void run_local_ranks(int ranks, const std::function<void(comm::Runtime&)>& body, comm::RuntimeOptions options) {
  comm::run_local(
      ranks,
      [&](comm::Runtime& runtime) {
        ending_the_run_on_failure(runtime.rank(), runtime.size(), [&] { body(runtime); });
      },
      options);
}

}  // namespace courier::cli
