// Plain MPI baselines on MPI_COMM_WORLD: "mpi-noprobe" receives into pre-posted MPI_Irecv of
// known size; "mpi-probe" learns each message's size with MPI_Iprobe and then MPI_Recv's it (what
// a layer with unknown message sizes must do, paper 000 III-B).
#include <mpi.h>

#include <algorithm>

#include "variant.hpp"

namespace courier::bench {
namespace {

constexpr int data_tag = 1;
constexpr int ack_tag_base = 1000;

// Receives one message from `source` with `tag` whose size is unknown: probe, size, receive.
void probe_receive(int source, int tag, std::vector<std::byte>& buffer) {
  MPI_Status status;
  int found = 0;
  Backoff backoff;
  for (;;) {
    MPI_Iprobe(source, tag, MPI_COMM_WORLD, &found, &status);
    if (found) break;
    backoff.idle();
  }
  int bytes = 0;
  MPI_Get_count(&status, MPI_BYTE, &bytes);
  buffer.resize(static_cast<std::size_t>(bytes));
  MPI_Recv(buffer.data(), bytes, MPI_BYTE, source, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

double latency(const Setup& setup, std::size_t bytes, bool probe) {
  MPI_Barrier(MPI_COMM_WORLD);
  if (!setup.active()) {
    MPI_Barrier(MPI_COMM_WORLD);
    return 0;
  }
  const int count = static_cast<int>(bytes);
  const int iterations = setup.latency_iterations(bytes);
  const int warmup = iterations / 10;
  std::vector<std::byte> out(bytes, std::byte{1});
  std::vector<std::byte> in(bytes);
  MPI_Request pending = MPI_REQUEST_NULL;
  auto post = [&] {
    if (!probe) MPI_Irecv(in.data(), count, MPI_BYTE, setup.peer(), data_tag, MPI_COMM_WORLD, &pending);
  };
  auto receive = [&] {
    if (probe) {
      probe_receive(setup.peer(), data_tag, in);
    } else {
      MPI_Wait(&pending, MPI_STATUS_IGNORE);
    }
  };
  post();
  MPI_Barrier(MPI_COMM_WORLD);  // the receive is posted before the first message leaves
  auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < warmup + iterations; ++i) {
    if (i == warmup) start = std::chrono::steady_clock::now();
    if (setup.rank == 0) {
      MPI_Send(out.data(), count, MPI_BYTE, 1, data_tag, MPI_COMM_WORLD);
      receive();
      post();
    } else {
      receive();
      post();
      MPI_Send(out.data(), count, MPI_BYTE, 0, data_tag, MPI_COMM_WORLD);
    }
  }
  double elapsed = seconds_since(start);
  if (pending != MPI_REQUEST_NULL) {
    MPI_Cancel(&pending);
    MPI_Wait(&pending, MPI_STATUS_IGNORE);
  }
  return elapsed * 1e6 / iterations / 2;
}

// Thread t of rank 0 streams to thread t of rank 1 with tag data_tag + t; acks use their own tags.
double rate(const Setup& setup, int threads, bool probe) {
  if (setup.active()) {
    MPI_Barrier(MPI_COMM_WORLD);
  } else {
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
    return 0;
  }
  const int windows = setup.rate_windows();
  const int warmup = std::max(1, windows / 10);
  WarmupClock clock(threads);
  run_threads(threads, [&](int t) {
    const int tag = data_tag + t;
    const int ack_tag = ack_tag_base + t;
    std::vector<std::vector<std::byte>> buffers(rate_window,
                                                std::vector<std::byte>(rate_message_bytes));
    std::vector<MPI_Request> requests(rate_window, MPI_REQUEST_NULL);
    char ack = 0;
    auto post_window = [&] {
      for (int m = 0; m < rate_window; ++m) {
        MPI_Irecv(buffers[m].data(), static_cast<int>(rate_message_bytes), MPI_BYTE, 0, tag,
                  MPI_COMM_WORLD, &requests[m]);
      }
    };
    if (setup.rank == 1 && !probe) post_window();
    for (int w = 0; w < warmup + windows; ++w) {
      if (w == warmup) clock.arrive();
      if (setup.rank == 0) {
        MPI_Request ack_request;
        MPI_Irecv(&ack, 1, MPI_CHAR, 1, ack_tag, MPI_COMM_WORLD, &ack_request);
        for (int m = 0; m < rate_window; ++m) {
          MPI_Isend(buffers[m].data(), static_cast<int>(rate_message_bytes), MPI_BYTE, 1, tag,
                    MPI_COMM_WORLD, &requests[m]);
        }
        MPI_Waitall(rate_window, requests.data(), MPI_STATUSES_IGNORE);
        MPI_Wait(&ack_request, MPI_STATUS_IGNORE);
      } else {
        if (probe) {
          for (int m = 0; m < rate_window; ++m) probe_receive(0, tag, buffers[m]);
        } else {
          MPI_Waitall(rate_window, requests.data(), MPI_STATUSES_IGNORE);
          if (w + 1 < warmup + windows) post_window();  // pre-post before acknowledging
        }
        MPI_Send(&ack, 1, MPI_CHAR, 0, ack_tag, MPI_COMM_WORLD);
      }
    }
  });
  double elapsed = clock.seconds();
  MPI_Barrier(MPI_COMM_WORLD);
  return static_cast<double>(threads) * windows * rate_window / elapsed;
}

}  // namespace

std::vector<Variant> raw_mpi_variants() {
  return {
      {"mpi-noprobe", [](const Setup& s, std::size_t b) { return latency(s, b, false); },
       [](const Setup& s, int t) { return rate(s, t, false); }},
      {"mpi-probe", [](const Setup& s, std::size_t b) { return latency(s, b, true); },
       [](const Setup& s, int t) { return rate(s, t, true); }},
  };
}

}  // namespace courier::bench
