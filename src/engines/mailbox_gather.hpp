#pragma once
// Collecting the mailbox applications' results on rank 0, through the mailbox itself (so the same
// code serves threads on the local transport and processes under mpirun): per-vertex values kept
// round robin, and one fixed-size report per rank.
//
// Both create their mailbox at construction: build them before the application runs, so they
// exist on every rank before any rank finishes it (see algo/mailbox_shuffle.hpp).
#include <algorithm>
#include <cstdint>
#include <span>
#include <type_traits>
#include <vector>

#include "courier/mailbox/round_robin.hpp"
#include "courier/mailbox/mailbox.hpp"

namespace courier::engines {

// Values kept round robin (value i of rank r is vertex i * P + r) into one array on rank 0.
template <class T>
class RoundRobinGather {
  static_assert(std::is_trivially_copyable_v<T>);
  static constexpr std::uint32_t block = 64;  // values per message

  struct Block {
    std::uint32_t from;
    std::uint32_t count;
    std::uint64_t first;  // local index of values[0] on `from`
    T values[block];
  };

 public:
  RoundRobinGather(comm::Runtime& runtime, graph::vertex_t vertices, const mailbox::Config& config)
      : vertices_(vertices), box_(runtime, [this](auto&, const Block& b) { place(b); }, config) {}

  // Collective: the whole array on rank 0, empty elsewhere.
  std::vector<T> run(std::span<const T> mine) {
    if (box_.rank() == 0) all_.assign(static_cast<std::size_t>(vertices_), T{});
    for (std::size_t first = 0; first < mine.size(); first += block) {
      Block b{};
      b.from = static_cast<std::uint32_t>(box_.rank());
      b.count = static_cast<std::uint32_t>(std::min<std::size_t>(block, mine.size() - first));
      b.first = first;
      std::copy_n(mine.begin() + static_cast<std::ptrdiff_t>(first), b.count, b.values);
      box_.async_send(0, b);
    }
    box_.wait_empty();
    return std::move(all_);
  }

 private:
  void place(const Block& b) {
    const mailbox::RoundRobin from(box_.ranks(), static_cast<int>(b.from), vertices_);
    for (std::uint32_t j = 0; j < b.count; ++j) all_[from.global(b.first + j)] = b.values[j];
  }

  graph::vertex_t vertices_;
  std::vector<T> all_;
  mailbox::Mailbox<Block> box_;  // last: its callback uses the members above
};

// One report per rank, in rank order, on rank 0.
template <class Report>
class ReportGather {
  static_assert(std::is_trivially_copyable_v<Report>);
  struct Tagged {
    int from;
    Report report;
  };

 public:
  ReportGather(comm::Runtime& runtime, const mailbox::Config& config)
      : box_(runtime, [this](auto&, const Tagged& t) { reports_[static_cast<std::size_t>(t.from)] = t.report; }, config) {}

  std::vector<Report> run(const Report& mine) {
    if (box_.rank() == 0) reports_.assign(static_cast<std::size_t>(box_.ranks()), Report{});
    box_.async_send(0, Tagged{box_.rank(), mine});
    box_.wait_empty();
    return std::move(reports_);
  }

 private:
  std::vector<Report> reports_;
  mailbox::Mailbox<Tagged> box_;
};

}  // namespace courier::engines
