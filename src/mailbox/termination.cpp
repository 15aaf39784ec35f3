#include "termination.hpp"

#include <string>

#include "courier/core/error.hpp"

namespace courier::mailbox::detail {

Termination::Termination(comm::Endpoint& endpoint, int rank, int size) : rank_(rank), size_(size), outbox_(endpoint) {}

void Termination::on_message(const comm::Completion& c) {
  const auto m = read_control<Message>(c, "termination");
  if (m.cancel != 0) cancelling_ = true;  // probes, reports and "done" all pass the request on
  switch (c.tag) {
    case probe_tag:
      probe_ = m;
      break;
    case report_tag:
      add_report(m);
      break;
    case done_tag:
      if (m.epoch + 1 > done_through_) {
        done_through_ = m.epoch + 1;
        done_cancelled_ = m.cancel != 0;
      }
      break;
    default:
      break;
  }
}

bool Termination::on_idle() {
  if (!flush_outbox()) return false;
  if (rank_ == 0) {
    if (wave_open_ || done_through_ > epoch_) return false;
    wave_open_ = true;
    ++wave_;
    ++waves_;
    reports_ = 0;
    wave_sent_ = wave_received_ = 0;
    for (int r = 1; r < size_; ++r) post(r, probe_tag, Message{epoch_, wave_, 0, 0, cancelling_});
    add_report(Message{epoch_, wave_, sent_, received_, cancelling_});
    return true;
  }
  if (!probe_ || probe_->epoch != epoch_) return false;  // none, or one of the next epoch
  post(0, report_tag, Message{epoch_, probe_->wave, sent_, received_, cancelling_});
  probe_.reset();
  ++waves_;
  return true;
}

void Termination::add_report(const Message& report) {
  if (!wave_open_ || report.epoch != epoch_ || report.wave != wave_) {
    throw Error("mailbox: rank 0 got a termination report for epoch " + std::to_string(report.epoch) + " wave " +
                std::to_string(report.wave) + " while in epoch " + std::to_string(epoch_) + " wave " +
                std::to_string(wave_) + "; this is a bug in the mailbox");
  }
  wave_sent_ += report.sent;
  wave_received_ += report.received;
  if (++reports_ == size_) close_wave();
}

void Termination::close_wave() {
  wave_open_ = false;
  const std::pair sums{wave_sent_, wave_received_};
  if (wave_sent_ == wave_received_ && last_wave_ == sums) {
    for (int r = 1; r < size_; ++r) post(r, done_tag, Message{epoch_, wave_, 0, 0, cancelling_});
    done_through_ = epoch_ + 1;
    done_cancelled_ = cancelling_;
    last_wave_.reset();
  } else {
    last_wave_ = sums;
  }
}

bool Termination::finished() {
  // Rank 0 returns only once every "done" is on its way, so no rank is left waiting.
  if (done_through_ <= epoch_ || !flush_outbox()) return false;
  ++epoch_;
  cancelled_ = done_cancelled_;
  return true;
}

}  // namespace courier::mailbox::detail
