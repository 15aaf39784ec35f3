// Courier's exceptions as Python's, carrying Courier's messages: courier.Error for every failure
// Courier names, courier.InputError (also a ValueError) for input a user handed it (a malformed
// file, a bad option), courier.LoadError for an input every rank of a distributed run refused alike.
#include "bindings.hpp"
#include "courier/core/error.hpp"
#include "courier/dist/distributed_load.hpp"

namespace courier::python {

namespace {

PyObject* error_type = nullptr;
PyObject* input_error_type = nullptr;
PyObject* load_error_type = nullptr;

PyObject* new_type(py::module_& module, const char* name, const char* doc, PyObject* bases) {
  PyObject* type = PyErr_NewExceptionWithDoc((std::string("courier.") + name).c_str(), doc, bases, nullptr);
  if (type == nullptr) throw py::error_already_set();
  module.add_object(name, py::handle(type));  // the module keeps the reference
  return type;
}

}  // namespace

void bind_errors(py::module_& module) {
  error_type =
      new_type(module, "Error", "A failure Courier names: what went wrong, where, and what to do.", PyExc_Exception);
  const py::tuple input_bases = py::make_tuple(py::handle(error_type), py::handle(PyExc_ValueError));
  input_error_type = new_type(module, "InputError",
                              "Input a user handed Courier is wrong: a malformed file, an id out of range, a bad "
                              "option. Also a ValueError.",
                              input_bases.ptr());
  load_error_type =
      new_type(module, "LoadError",
               "Every rank of a distributed run refused the input alike (the message is rank 0's).", input_error_type);
  py::register_exception_translator([](std::exception_ptr failure) {
    try {
      if (failure) std::rethrow_exception(failure);
    } catch (const dist::LoadError& e) {
      PyErr_SetString(load_error_type, e.what());
    } catch (const InputError& e) {
      PyErr_SetString(input_error_type, e.what());
    } catch (const Error& e) {
      PyErr_SetString(error_type, e.what());
    }
  });
}

}  // namespace courier::python
