#include "courier/comm/local_world.hpp"

#include <exception>
#include <thread>
#include <vector>

namespace courier::comm {

void run_local(rank_t ranks, const std::function<void(Runtime&)>& body, RuntimeOptions options,
               net::LocalOptions local) {
  net::LocalFabric fabric(ranks, local);
  std::vector<std::unique_ptr<net::Device>> devices;
  for (rank_t r = 0; r < ranks; ++r) devices.push_back(fabric.device(r));
  std::vector<std::exception_ptr> errors(static_cast<std::size_t>(ranks));
  std::vector<std::thread> threads;
  for (rank_t r = 0; r < ranks; ++r) {
    threads.emplace_back([&, r] {
      auto& error = errors[static_cast<std::size_t>(r)];
      try {
        Runtime runtime(std::move(devices[static_cast<std::size_t>(r)]), options);
        try {
          body(runtime);
        } catch (...) {
          error = std::current_exception();
        }
        runtime.shutdown();
      } catch (...) {
        if (!error) error = std::current_exception();
      }
    });
  }
  for (auto& t : threads) t.join();
  for (auto& error : errors) {
    if (error) std::rethrow_exception(error);
  }
}

}  // namespace courier::comm
