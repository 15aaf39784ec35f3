#pragma once
// Machine: one machine as placement sees it -- packages (sockets), their cores, and each core's
// processing units (PUs, by OS index) -- restricted to the PUs this process may use. Read from
// hwloc for this process, or built from hwloc's synthetic description ("package:2 core:4 pu:2"),
// so that placement can be tested for machines this one is not.
#include <string>
#include <vector>

namespace courier {

struct Machine {
  struct Core {
    std::vector<unsigned> pus;
  };
  struct Package {
    std::vector<Core> cores;
  };
  std::vector<Package> packages;  // those with at least one allowed PU

  // This process's PUs (its CPU binding); empty if hwloc cannot tell.
  static Machine of_this_process();
  // A machine as hwloc's synthetic syntax describes it, every PU allowed; InputError if hwloc
  // does not accept the description.
  static Machine synthetic(const std::string& description);

  std::size_t pus() const;
  // The PUs of package `p`, or of every package, cores first: the first PU of every core, then
  // the second, so threads fill cores before hardware threads.
  std::vector<unsigned> cores_first(std::size_t p) const;
  std::vector<unsigned> cores_first() const;
  // The package holding `pu`, or -1.
  int package_of(unsigned pu) const;
};

}  // namespace courier
