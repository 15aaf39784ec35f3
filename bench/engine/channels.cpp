#include "engine/channels.hpp"

#include <string>

#include "courier/core/error.hpp"
#include "courier/sync/wait.hpp"

namespace courier::bench {

namespace {

// lci-wN, lci-mN, lci-yN: `prefix` followed by digits only (lci-whole is not lci-wN).
bool numbered(const std::string& name, const char* prefix) {
  const std::string p(prefix);
  return name.size() > p.size() && name.starts_with(p) &&
         name.find_first_not_of("0123456789", p.size()) == std::string::npos;
}

}  // namespace

sync::StackSpec channel_spec(const std::string& name, unsigned threads_per_rank) {
  sync::StackSpec spec{.channel = name, .threads_per_rank = threads_per_rank};
  if (name == "mpi-probe" || name == "mpi-rma" || name == "lci") return spec;
  const bool window = numbered(name, "lci-w"), message = numbered(name, "lci-m"), yield = numbered(name, "lci-y");
  if (!(name == "lci-thread" || name == "lci-explicit" || name == "lci-whole" || name == "lci-eager-server" ||
        name == "lci-4k" || name == "lci-unbounded" || name == "lci-64k" || name == "lci-nap" || name == "lci-eager" ||
        window || yield || message))
    throw InputError("engine_bench: no channel '" + name +
                     "' (choose from lci, lci-thread, lci-explicit, lci-eager, "
                     "lci-whole, lci-eager-server, lci-4k, lci-unbounded, lci-wN, lci-mN, lci-yN, lci-nap, lci-64k, "
                     "mpi-probe, mpi-rma)");
  spec.channel = "lci";
  if (name == "lci-thread" || name == "lci-eager-server") spec.progress = sync::ProgressMode::thread;
  if (name == "lci-explicit") spec.progress = sync::ProgressMode::explicit_calls;
  if (name == "lci-4k") spec.device.max_frame_bytes = 4096;  // within Open MPI vader's eager limit
  const std::size_t number = window || message || yield ? std::stoul(name.substr(5)) : 0;
  spec.tune = [name, window, message, yield, number](comm::RuntimeOptions& runtime, sync::LciOptions& lci) {
    if (name == "lci-eager-server") runtime.server_backoff = sync::kPhaseWait;
    if (name == "lci-eager" || name == "lci-4k") lci = sync::LciOptions{};  // eager-sized messages
    lci.stream = name != "lci-whole";
    if (name == "lci-unbounded") lci.window = 0;  // no receive-side flow control
    if (window) lci.window = number;
    if (message) lci.message_bytes = number * 1024;
    if (yield) lci.wait.yields = static_cast<std::uint32_t>(number);
    if (name == "lci-nap")
      lci.wait = {.spins = 16,
                  .yields = 0,
                  .first_sleep = std::chrono::microseconds(50),
                  .max_sleep = std::chrono::microseconds(200)};
    if (name == "lci-64k") {  // streamed by rendezvous: fewer copies, a round trip per message
      lci.message_bytes = 64 * 1024;
      lci.window = 4;
    }
  };
  return spec;
}

}  // namespace courier::bench
