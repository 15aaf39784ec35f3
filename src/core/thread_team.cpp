#include "courier/core/thread_team.hpp"

namespace courier {

ThreadTeam::ThreadTeam(unsigned size) {
  for (unsigned member = 1; member < (size == 0 ? 1 : size); ++member)
    workers_.emplace_back([this, member] { work(member); });
}

ThreadTeam::~ThreadTeam() {
  stopping_.store(true);
  generation_.fetch_add(1);
  generation_.notify_all();
  for (std::thread& t : workers_) t.join();
}

void ThreadTeam::call(unsigned member) {
  try {
    (*job_)(member);
  } catch (...) {
    std::lock_guard lock(error_mutex_);
    if (!error_) error_ = std::current_exception();
  }
}

void ThreadTeam::work(unsigned member) {
  std::uint64_t seen = 0;
  for (;;) {
    generation_.wait(seen);
    seen = generation_.load();
    if (stopping_.load()) return;
    call(member);
    if (remaining_.fetch_sub(1) == 1) remaining_.notify_one();
  }
}

void ThreadTeam::run(const std::function<void(unsigned)>& fn) {
  job_ = &fn;
  error_ = nullptr;
  remaining_.store(static_cast<unsigned>(workers_.size()));
  generation_.fetch_add(1);
  generation_.notify_all();
  call(0);
  for (unsigned left = remaining_.load(); left != 0; left = remaining_.load()) remaining_.wait(left);
  job_ = nullptr;
  if (error_) std::rethrow_exception(error_);
}

}  // namespace courier
