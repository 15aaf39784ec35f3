#include "courier/core/thread_team.hpp"

namespace courier {

ThreadTeam::ThreadTeam(unsigned size) : ThreadTeam(size, {}) {}

ThreadTeam::ThreadTeam(unsigned size, std::vector<unsigned> pus) {
  if (size == 0) size = 1;
  scan_slots_ = std::make_unique<ScanSlot[]>(size);
  caller_scan_slot_ = this_thread_scan_slot;
  this_thread_scan_slot = &scan_slots_[0];
  if (pus.size() == size) {
    caller_binding_ = ThreadBinding::current();
    if (caller_binding_ && pin_this_thread(pus[0])) pus_ = std::move(pus);
    else caller_binding_.reset();  // cannot bind here: leave every member unbound
  }
  for (unsigned member = 1; member < size; ++member) workers_.emplace_back([this, member] { work(member); });
}

ThreadTeam::~ThreadTeam() {
  stopping_.store(true);
  generation_.fetch_add(1);
  generation_.notify_all();
  for (std::thread& t : workers_) t.join();
  if (caller_binding_) caller_binding_->restore();
  this_thread_scan_slot = caller_scan_slot_;
}

std::uint64_t ThreadTeam::scanned_words() const {
  std::uint64_t total = 0;
  for (unsigned member = 0; member < size(); ++member)
    total += scan_slots_[member].words.load(std::memory_order_relaxed);
  return total;
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
  if (!pus_.empty()) pin_this_thread(pus_[member]);  // best effort: the caller's bind succeeded
  this_thread_scan_slot = &scan_slots_[member];
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
