#pragma once
// Test helper: a local world whose runtimes are built up front (so a test can expose windows and
// read statistics after the ranks finished), and a body run on one thread per rank, followed by
// the collective shutdown.
#include <exception>
#include <functional>
#include <memory>
#include <thread>
#include <vector>

#include "courier/comm/runtime.hpp"
#include "courier/net/local.hpp"

namespace courier::comm::testing {

class World {
 public:
  World(rank_t ranks, RuntimeOptions options = {}, net::LocalOptions local = {}) : fabric_(ranks, local) {
    for (rank_t r = 0; r < ranks; ++r) runtimes_.push_back(std::make_unique<Runtime>(fabric_.device(r), options));
  }
  Runtime& operator[](rank_t r) { return *runtimes_[static_cast<std::size_t>(r)]; }
  rank_t ranks() const { return static_cast<rank_t>(runtimes_.size()); }

  // body(runtime) on one thread per rank, then shutdown; rethrows the first failure.
  void run(const std::function<void(Runtime&)>& body) {
    std::vector<std::exception_ptr> errors(runtimes_.size());
    std::vector<std::thread> threads;
    for (std::size_t r = 0; r < runtimes_.size(); ++r) {
      threads.emplace_back([&, r] {
        try {
          body(*runtimes_[r]);
        } catch (...) {
          errors[r] = std::current_exception();
        }
        try {
          runtimes_[r]->shutdown();
        } catch (...) {
          if (!errors[r]) errors[r] = std::current_exception();
        }
      });
    }
    for (auto& t : threads) t.join();
    for (auto& e : errors) {
      if (e) std::rethrow_exception(e);
    }
  }

 private:
  net::LocalFabric fabric_;
  std::vector<std::unique_ptr<Runtime>> runtimes_;
};

inline std::span<const std::byte> as_bytes(const std::vector<std::byte>& v) { return {v.data(), v.size()}; }

}  // namespace courier::comm::testing
