#pragma once
// The routing schemes of paper 001, section III. Every message travels from its sender to its
// destination through at most two intermediaries, chosen only from the topology:
//   no_route     straight to the destination.
//   node_local   a local hop to the core of the sender's node that has the destination's core
//                offset, then one remote hop (III-B).
//   node_remote  one remote hop to the core of the destination's node that has the sender's core
//                offset, then a local hop (III-C).
//   nlnr         a local hop to core (destination node mod C) of the sender's node, a remote hop to
//                core (sender node mod C) of the destination's node, then a local hop (III-D).
#include <string>
#include <string_view>

namespace courier::mailbox {

enum class Routing { no_route, node_local, node_remote, nlnr };

// "noroute", "node-local", "node-remote", "nlnr" (also "none", "nl", "nr", case-insensitive);
// throws InputError naming the accepted spellings otherwise.
Routing parse_routing(std::string_view text);
std::string to_string(Routing routing);

}  // namespace courier::mailbox
