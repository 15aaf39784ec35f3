#include "rendezvous.hpp"

#include <algorithm>
#include <string>

#include "courier/core/error.hpp"

namespace courier::comm {

void Rendezvous::expose(ProgressToken token, rank_t origin, std::span<std::byte> region, Arrival* arrival,
                        std::uint64_t slot) {
  Held& held = held_.get(token);
  const std::uint64_t key = held.next_incoming++;
  held.incoming.emplace(key, arrival);
  expose_and_answer(token, PendingExpose{origin, region, key, slot});
}

void Rendezvous::expose_and_answer(ProgressToken token, PendingExpose expose) {
  net::RemoteRegion named;
  if (device_.try_expose(expose.origin, expose.region, expose.context, named) == Post::retry) {
    bump(counters_.device_retries);
    held_.get(token).exposes.push_back(expose);
    return;
  }
  wire::Header rtr;
  rtr.type = wire::Type::rtr;
  rtr.a = expose.slot;
  outgoing_.send_control(token, expose.origin, rtr, std::as_bytes(std::span(&named, 1)));
}

void Rendezvous::answer_rtr(ProgressToken token, rank_t target, const net::RemoteRegion& region,
                            std::uint64_t slot) {
  const Transfer& rec = slots_.at(slot);
  // A recv into a smaller caller's buffer exposed only its size: the rest is dropped here.
  start_put(token, target, region, std::span(rec.source, std::min<std::size_t>(rec.size, region.bytes)), slot);
}

void Rendezvous::answer_get(ProgressToken token, rank_t origin, const net::RemoteRegion& region,
                            std::span<const std::byte> data) {
  start_put(token, origin, region, data, get_answer_context);
}

void Rendezvous::start_put(ProgressToken token, rank_t target, const net::RemoteRegion& region,
                           std::span<const std::byte> data, std::uint64_t context) {
  switch (device_.try_put(target, region, data, context)) {
    case Post::done:
      if (context != get_answer_context) complete_origin(token, static_cast<std::uint32_t>(context));
      break;
    case Post::posted:
      break;  // on_put_sent follows
    case Post::retry:
      bump(counters_.device_retries);
      held_.get(token).puts.push_back(PendingPut{target, region, data, context});
      break;
  }
}

void Rendezvous::on_put_sent(ProgressToken token, std::uint64_t context) {
  if (context != get_answer_context) complete_origin(token, static_cast<std::uint32_t>(context));
}

void Rendezvous::on_put_arrived(ProgressToken token, std::uint64_t context) {
  if (context & get_expose_flag) {
    complete_origin(token, static_cast<std::uint32_t>(context & ~get_expose_flag));
    return;
  }
  auto& incoming = held_.get(token).incoming;
  auto it = incoming.find(context);
  if (it == incoming.end()) {
    throw Error("comm: a put arrived for unknown region " + std::to_string(context) + " on rank " + std::to_string(rank_));
  }
  if (it->second != nullptr) it->second->ready = true;
  incoming.erase(it);
}

void Rendezvous::complete_origin(ProgressToken token, std::uint32_t slot) {
  const Transfer rec = slots_.at(slot);
  slots_.give_back(slot);
  const Completion c{.op = rec.op,
                     .endpoint = rec.peer_endpoint,
                     .rank = rec.peer,
                     .tag = rec.tag,
                     .size = rec.size,
                     .data = rec.op == Op::get ? rec.destination : const_cast<std::byte*>(rec.source),
                     .context = rec.context};
  delivery_.complete_origin(token, *endpoints_.find(rec.endpoint), c);
}

void Rendezvous::retry_refused_now(ProgressToken token) {
  Held& held = held_.get(token);
  for (std::size_t n = held.exposes.size(); n > 0; --n) {
    PendingExpose expose = held.exposes.front();
    held.exposes.pop_front();
    expose_and_answer(token, expose);
  }
  for (std::size_t n = held.puts.size(); n > 0; --n) {
    PendingPut put = held.puts.front();
    held.puts.pop_front();
    start_put(token, put.target, put.region, put.data, put.context);
  }
}

}  // namespace courier::comm
