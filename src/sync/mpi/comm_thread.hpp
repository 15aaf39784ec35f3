#pragma once
// CommThread: the one thread that calls MPI for a channel (paper 000, III-B: "MPI commands are
// only issued from the dedicated communication thread"). Other threads hand it work as tasks in
// a multi-producer queue; between tasks it calls the channel's progress function, which tests
// requests, probes for messages and so on. It backs off when there is nothing to do and parks
// when the channel says it is idle, so an oversubscribed machine loses little.
#include <condition_variable>
#include <deque>
#include <exception>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <thread>

namespace courier::sync::mpi {

enum class Activity {
  worked,   // something happened: poll again at once
  polling,  // waiting on MPI: poll again soon
  idle,     // nothing outstanding: sleep until woken
};

class CommThread {
 public:
  using Progress = std::function<Activity()>;

  CommThread() = default;
  ~CommThread() { stop(); }
  CommThread(const CommThread&) = delete;
  CommThread& operator=(const CommThread&) = delete;

  // Starts the thread; `progress` runs on it until stop().
  void start(Progress progress);
  // Finishes queued tasks and joins. Idempotent.
  void stop();

  // Queues a task; it runs on the communication thread in the order posted. An exception it
  // throws makes the channel failed (see rethrow_if_failed).
  void post(std::function<void()> task);
  // Runs `task` on the communication thread and waits for its result (or exception).
  template <class F>
  auto call(F task) -> decltype(task()) {
    using Result = decltype(task());
    auto job = std::make_shared<std::packaged_task<Result()>>(std::move(task));
    auto result = job->get_future();
    enqueue([job] { (*job)(); });
    return result.get();
  }
  // Wakes a parked thread (the channel has new work outstanding).
  void wake();

  // One call of the progress function; for tasks that wait on MPI themselves.
  Activity progress_once() { return progress_(); }

  // Throws the error that stopped the communication thread, if any.
  void rethrow_if_failed() const;
  bool on_this_thread() const { return std::this_thread::get_id() == thread_.get_id(); }

 private:
  void enqueue(std::function<void()> task);
  void loop();
  bool run_tasks();
  void fail(std::exception_ptr error);

  Progress progress_;
  std::thread thread_;
  mutable std::mutex mutex_;
  std::condition_variable wakeup_;
  std::deque<std::function<void()>> tasks_;
  bool stopping_ = false;
  bool woken_ = false;
  std::exception_ptr failure_;
};

}  // namespace courier::sync::mpi
