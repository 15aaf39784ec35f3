#pragma once
// comm::Runtime: the communication runtime of one rank (papers 000 III-D and 002). It owns the
// transport (net::Device), a bounded packet pool, one outgoing MPMC packet queue per destination
// and their progress. Worker threads post through endpoints: an eager send takes a packet
// (from the thread's cache), copies the data in and enqueues it. Progress -- a dedicated server
// thread, or explicit progress() calls -- packs the packets queued for one destination into one
// frame, reads arriving frames, runs the rendezvous protocol (RTS -> RTR -> put) and reports
// completions. Whoever holds the progress lock drives the device; nobody waits for it.
//
// The latency path skips the hand-offs: an eager send to a destination with nothing queued, when
// nobody is progressing and no packet went there this way since the last round, is packed
// straight into a frame and handed to the device by the sending thread; a poll() or recv() that
// finds nothing runs one round itself, and a completion for the polling endpoint goes to it from
// hand to hand. While callers progress this way the server thread stays out of their way.
//
//   comm::Runtime runtime(fabric.device(rank));          // or any net::Device
//   comm::Endpoint& ep = runtime.endpoint();             // initial endpoint, completion queue
//   while (ep.send(peer, tag, bytes) == comm::Post::retry) backoff.pause();
//   comm::Completion c;
//   if (ep.poll(c)) { use(c.rank, c.tag, c.data, c.size); ep.release(c); }
//   runtime.shutdown();                                   // collective
//
// Shutdown (collective; the destructor does it if the caller did not): new posts throw (also
// from handlers, which then fail the rank's progress: keep a rank up while it must answer); each
// rank keeps progressing until everything it queued has been handed to the transport and its
// rendezvous transfers finished, then tells every rank how many packets it sent (FIN) and
// progresses until it has received every packet announced to it, then meets the others in a
// device barrier. Messages arriving during shutdown are delivered as usual; if a completion
// queue is full they are discarded (Stats::discarded). Packets still queued when
// shutdown_timeout expires are dropped (Stats::dropped). Received messages still in a
// completion queue (or unclaimed by recv) at destruction are freed with the endpoint's
// allocator (Stats::freed_undelivered). A peer that never shuts down makes shutdown throw
// after shutdown_timeout instead of hanging.
#include <chrono>
#include <cstddef>
#include <memory>
#include <span>
#include <vector>

#include "courier/comm/endpoint.hpp"
#include "courier/comm/stats.hpp"
#include "courier/core/backoff.hpp"
#include "courier/net/device.hpp"

namespace courier::comm {

struct RuntimeOptions {
  std::size_t packet_count = 2048;      // the pool: the bound on queued and in-flight packets
  std::size_t eager_bytes = 8192;       // largest eager message (clipped to the device's frame)
  std::size_t queue_packets = 1024;     // outgoing queue per destination
  std::size_t max_rendezvous = 256;     // large sends, puts and gets in flight at once
  bool progress_thread = true;          // false: callers drive progress() themselves
  Backoff::Limits server_backoff{};     // how the progress server waits when it finds no work
  std::chrono::milliseconds shutdown_timeout{10000};
  EndpointOptions initial_endpoint{};   // the initial endpoint's completion mechanism
};

class Runtime {
 public:
  explicit Runtime(std::unique_ptr<net::Device> device, RuntimeOptions options = {});
  ~Runtime();
  Runtime(const Runtime&) = delete;
  Runtime& operator=(const Runtime&) = delete;

  rank_t rank() const;
  rank_t ranks() const;
  // The node of every rank, indexed by rank, as the transport reports it (ranks that share
  // memory share a node): what a topology-aware user (the mailbox's routes) needs of the device.
  std::vector<int> rank_nodes() const;
  const RuntimeOptions& options() const;
  std::size_t eager_limit() const;  // sends up to this many bytes go eager

  Endpoint& endpoint();  // the initial endpoint (id 0)
  // A new endpoint with the next id; create endpoints in the same order on every rank.
  Endpoint& create_endpoint(EndpointOptions options);

  // Makes `memory` window `id` of this rank for one-sided put/get by other ranks. Expose before
  // any rank addresses it (e.g. before a barrier-like exchange); it must outlive the runtime.
  void expose_window(window_id id, std::span<std::byte> memory);

  // One round of progress; true if it found work. Safe from any thread at any time: a caller
  // that finds another thread progressing returns false at once. Needed only without the
  // progress thread, and harmless with it. Without the progress thread, what a rank posted
  // moves only while some thread of that rank calls progress(), poll(), recv() (or shutdown()):
  // a rank that has finished its own work keeps progressing until its peers are done too.
  bool progress();

  // Without the progress thread: progresses until nothing this rank posted so far waits in its
  // queues for the transport (rendezvous transfers still need their peers' progress). A caller
  // about to stop progressing for a while -- to compute, or to wait on something outside this
  // runtime -- calls it, so its peers are not left waiting for packets only it could send. It
  // gives up when rounds have found nothing to do for 100 ms while packets remain (the transport
  // refuses them until the peer reads what it holds, and that peer's own progress finds these
  // behind). With the thread: nothing.
  void flush();

  Stats stats() const;

  // Bytes one rank's runtime may hold at most with `options` in a world of `ranks` ranks on a
  // transport of `frame_bytes` frames, if it sent to every peer: a part fixed per rank (the pool,
  // its queues, the frame) plus a small part per peer sent to (Outgoing::bytes_per_destination).
  static std::uint64_t estimate_bytes(rank_t ranks, const RuntimeOptions& options, std::size_t frame_bytes);

  // Collective: see above. Idempotent. Throws courier::Error if a peer never shut down.
  void shutdown();

 private:
  std::unique_ptr<RuntimeState> state_;
};

}  // namespace courier::comm
