#pragma once
// Moving items to the ranks that will keep them, through a mailbox: the redistribution step of
// the mailbox applications (each rank loads any share of the edges; the application decides
// where each edge lives).
//
// Build it before the collective steps that come first (it creates its mailbox, hence its
// endpoint, at construction): a rank that finishes the previous step early may start sending
// here while another still waits for that step to end, and comm holds messages for an endpoint
// that does not exist yet in a way that stops the waiting rank from reading anything else.
#include <vector>

#include "courier/comm/runtime.hpp"
#include "courier/mailbox/mailbox.hpp"

namespace courier::algo {

template <class Item>
class MailboxShuffle {
 public:
  MailboxShuffle(comm::Runtime& runtime, const mailbox::Config& config)
      : box_(runtime, Keep{this}, config) {}

  // Collective. `emit_all(send)` calls send(rank, item) for every item this rank hands on;
  // returns the items every rank sent here, in no particular order. Adds what the mailbox did to
  // `stats` when given. Call once.
  template <class EmitAll>
  std::vector<Item> run(EmitAll&& emit_all, mailbox::Stats* stats = nullptr) {
    emit_all([this](int rank, const Item& item) { box_.async_send(rank, item); });
    box_.wait_empty();
    if (stats) *stats += box_.local_stats();
    return std::move(received_);
  }

 private:
  // The callback as a type of its own, so the mailbox inlines it into its receive loop.
  struct Keep {
    MailboxShuffle* self;
    template <class Box>
    void operator()(Box&, const Item& item) const { self->received_.push_back(item); }
  };

  std::vector<Item> received_;
  mailbox::Mailbox<Item, Keep> box_;  // last: its callback uses received_
};

}  // namespace courier::algo
