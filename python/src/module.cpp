// _courier: the extension module under the courier package (python/courier/__init__.py).
#include "bindings.hpp"

PYBIND11_MODULE(_courier, module) {
  module.doc() = "Courier's run API: graphs, runs and their results (use the courier package)";
  courier::python::bind_errors(module);
  courier::python::bind_graph(module);
  courier::python::bind_run(module);
}
