#include "courier/mailbox/routing.hpp"

#include <algorithm>
#include <cctype>
#include <string>

#include "courier/core/error.hpp"

namespace courier::mailbox {

Routing parse_routing(std::string_view text) {
  std::string lower(text);
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  std::erase(lower, '_');
  std::erase(lower, '-');
  if (lower == "noroute" || lower == "none") return Routing::no_route;
  if (lower == "nodelocal" || lower == "nl") return Routing::node_local;
  if (lower == "noderemote" || lower == "nr") return Routing::node_remote;
  if (lower == "nlnr") return Routing::nlnr;
  throw InputError("routing '" + std::string(text) + "' is not known; use noroute, node-local, node-remote or nlnr");
}

std::string to_string(Routing routing) {
  switch (routing) {
    case Routing::no_route: return "noroute";
    case Routing::node_local: return "node-local";
    case Routing::node_remote: return "node-remote";
    case Routing::nlnr: return "nlnr";
  }
  return "unknown";
}

}  // namespace courier::mailbox
