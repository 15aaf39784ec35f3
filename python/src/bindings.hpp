#pragma once
// The pieces of the _courier extension module, one concept per file: errors (Courier's exceptions
// as Python's), graph (courier.Graph's C++ side), run (courier.run over harness::run).
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <string>

#include "courier/graph/load.hpp"

namespace courier::python {

namespace py = pybind11;

// What courier.Graph holds: a file or generator spec read when a run asks for it, or a graph in
// memory (load.memory), with the transforms to apply on loading.
struct Graph {
  std::string name;  // the file or spec; for a graph in memory, what it was made from
  graph::LoadOptions load;
};

void bind_errors(py::module_& module);
void bind_graph(py::module_& module);
void bind_run(py::module_& module);

// Keeps a Python object alive for as long as C++ storage borrows from it (a Buffer's keep-alive),
// taking the GIL to let go of it, whichever thread drops the last reference.
std::shared_ptr<const void> keep_alive(py::object object);

}  // namespace courier::python
