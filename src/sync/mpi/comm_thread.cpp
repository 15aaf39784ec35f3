#include "comm_thread.hpp"

#include <chrono>

#include "courier/core/backoff.hpp"
#include "courier/sync/wait.hpp"

namespace courier::sync::mpi {

void CommThread::start(Progress progress) {
  progress_ = std::move(progress);
  thread_ = std::thread([this] { loop(); });
}

void CommThread::stop() {
  if (!thread_.joinable()) return;
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wakeup_.notify_one();
  thread_.join();
}

void CommThread::post(std::function<void()> task) {
  enqueue([this, task = std::move(task)] {
    try {
      task();
    } catch (...) {
      fail(std::current_exception());
    }
  });
}

void CommThread::enqueue(std::function<void()> task) {
  {
    std::lock_guard lock(mutex_);
    tasks_.push_back(std::move(task));
    woken_ = true;
  }
  wakeup_.notify_one();
}

void CommThread::wake() {
  {
    std::lock_guard lock(mutex_);
    woken_ = true;
  }
  wakeup_.notify_one();
}

void CommThread::rethrow_if_failed() const {
  std::lock_guard lock(mutex_);
  if (failure_) std::rethrow_exception(failure_);
}

void CommThread::fail(std::exception_ptr error) {
  std::lock_guard lock(mutex_);
  if (!failure_) failure_ = error;
}

bool CommThread::run_tasks() {
  std::deque<std::function<void()>> batch;
  {
    std::lock_guard lock(mutex_);
    batch.swap(tasks_);
  }
  for (auto& task : batch) task();
  return !batch.empty();
}

void CommThread::loop() {
  Backoff backoff(kPhaseWait);
  bool failed = false;
  for (;;) {
    {
      std::unique_lock lock(mutex_);
      if (stopping_ && tasks_.empty()) return;
    }
    const bool ran = run_tasks();
    Activity activity = Activity::idle;
    if (!failed) {
      try {
        activity = progress_();
      } catch (...) {
        // MPI's state is unknown now: stop progressing, keep answering tasks so nobody hangs
        // on call(); every channel entry point rethrows this.
        fail(std::current_exception());
        failed = true;
      }
    }
    if (ran || activity == Activity::worked) {
      backoff.reset();
    } else if (activity == Activity::polling) {
      backoff.pause();
    } else {
      backoff.reset();
      std::unique_lock lock(mutex_);
      wakeup_.wait_for(lock, std::chrono::milliseconds(1), [&] { return woken_ || stopping_; });
      woken_ = false;
    }
  }
}

}  // namespace courier::sync::mpi
