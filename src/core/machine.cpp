#include "courier/core/machine.hpp"

#include <fmt/format.h>
#include <hwloc.h>

#include "courier/core/error.hpp"
#include "process_topology.hpp"

namespace courier {

namespace {

// The allowed PUs of `topo` by package and core. A level hwloc does not report (no package, no
// core) counts as one object spanning what is below it.
Machine read(hwloc_topology_t topo, hwloc_const_bitmap_t allowed) {
  Machine t;
  const int packages = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PACKAGE);
  const int cores = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE);
  const int pus = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PU);
  const auto package_set = [&](int p) {
    return packages > 0 ? hwloc_get_obj_by_type(topo, HWLOC_OBJ_PACKAGE, static_cast<unsigned>(p))->cpuset
                        : hwloc_topology_get_complete_cpuset(topo);
  };
  for (int p = 0; p < std::max(packages, 1); ++p) {
    Machine::Package package;
    const hwloc_const_bitmap_t inside = package_set(p);
    const hwloc_obj_type_t unit = cores > 0 ? HWLOC_OBJ_CORE : HWLOC_OBJ_PU;
    for (int c = 0; c < (cores > 0 ? cores : pus); ++c) {
      hwloc_obj_t core = hwloc_get_obj_by_type(topo, unit, static_cast<unsigned>(c));
      if (!hwloc_bitmap_isincluded(core->cpuset, inside)) continue;
      Machine::Core kept;
      for (hwloc_obj_t pu = hwloc_get_next_obj_inside_cpuset_by_type(topo, core->cpuset, HWLOC_OBJ_PU, nullptr);
           pu != nullptr; pu = hwloc_get_next_obj_inside_cpuset_by_type(topo, core->cpuset, HWLOC_OBJ_PU, pu))
        if (hwloc_bitmap_isset(allowed, pu->os_index)) kept.pus.push_back(pu->os_index);
      if (!kept.pus.empty()) package.cores.push_back(std::move(kept));
    }
    if (!package.cores.empty()) t.packages.push_back(std::move(package));
  }
  return t;
}

}  // namespace

Machine Machine::of_this_process() {
  // Read once, from the process's topology.
  static const Machine machine = [] {
    hwloc_topology_t topo = process_topology();
    if (topo == nullptr) return Machine{};
    hwloc_bitmap_t allowed = hwloc_bitmap_alloc();
    if (hwloc_get_cpubind(topo, allowed, HWLOC_CPUBIND_PROCESS) != 0)
      hwloc_bitmap_copy(allowed, hwloc_topology_get_allowed_cpuset(topo));
    Machine t = read(topo, allowed);
    hwloc_bitmap_free(allowed);
    return t;
  }();
  return machine;
}

Machine Machine::synthetic(const std::string& description) {
  hwloc_topology_t topo = nullptr;
  if (hwloc_topology_init(&topo) != 0) throw Error("hwloc could not start");
  if (hwloc_topology_set_synthetic(topo, description.c_str()) != 0 || hwloc_topology_load(topo) != 0) {
    hwloc_topology_destroy(topo);
    throw InputError(
        fmt::format("'{}' is not a topology hwloc can build (write e.g. \"package:2 core:4 pu:1\")", description));
  }
  Machine t = read(topo, hwloc_topology_get_complete_cpuset(topo));
  hwloc_topology_destroy(topo);
  return t;
}

std::size_t Machine::pus() const {
  std::size_t n = 0;
  for (const Package& p : packages)
    for (const Core& c : p.cores) n += c.pus.size();
  return n;
}

std::vector<unsigned> Machine::cores_first(std::size_t p) const {
  std::vector<unsigned> out;
  const Package& package = packages.at(p);
  for (std::size_t round = 0;; ++round) {
    bool any = false;
    for (const Core& core : package.cores)
      if (round < core.pus.size()) out.push_back(core.pus[round]), any = true;
    if (!any) return out;
  }
}

std::vector<unsigned> Machine::cores_first() const {
  // Round by round over every package, so a flat slice of cores stays within packages first.
  std::vector<unsigned> out;
  for (std::size_t round = 0;; ++round) {
    bool any = false;
    for (const Package& package : packages)
      for (const Core& core : package.cores)
        if (round < core.pus.size()) out.push_back(core.pus[round]), any = true;
    if (!any) return out;
  }
}

int Machine::package_of(unsigned pu) const {
  for (std::size_t p = 0; p < packages.size(); ++p)
    for (const Core& core : packages[p].cores)
      for (unsigned q : core.pus)
        if (q == pu) return static_cast<int>(p);
  return -1;
}

}  // namespace courier
