// courier.run's C++ side: a RunSpec from the call, harness::run with the GIL released, and the
// result as Python objects (the values a numpy array owning the vector it was moved into).
//
// Launching: ranks are threads of this process on the local transport unless the process is one
// of an MPI launcher's (mpirun -np N python3 script.py) and the engine is distributed; then MPI
// (Courier's own initialisation, MPI_THREAD_MULTIPLE) starts at the first such run and lives until
// the interpreter exits, since MPI cannot start twice in a process. An MPI someone else started
// (mpi4py) is used and left to them.
#include "courier/harness/run.hpp"

#include <fmt/format.h>
#include <pybind11/stl.h>

#include <csignal>
#include <map>
#include <memory>

#include "bindings.hpp"
#include "courier/algo/builtin.hpp"
#include "courier/core/cancel.hpp"
#include "courier/core/error.hpp"
#include "courier/harness/watchdog.hpp"

namespace courier::python {

using namespace pybind11::literals;

namespace {

// While a run lasts, SIGINT asks Courier to stop (the engines that agree on rounds stop at the
// next one) and still reaches Python's own handler, so KeyboardInterrupt follows the run.
class InterruptsCancel {
 public:
  InterruptsCancel() {
    if (installed_++ != 0) return;  // runs from several Python threads: the first installs
    clear_cancellation();
    struct sigaction ours {};
    ours.sa_handler = &on_interrupt;
    sigemptyset(&ours.sa_mask);
    ::sigaction(SIGINT, &ours, &python_);
  }
  ~InterruptsCancel() {
    if (--installed_ == 0) ::sigaction(SIGINT, &python_, nullptr);
  }
  InterruptsCancel(const InterruptsCancel&) = delete;
  InterruptsCancel& operator=(const InterruptsCancel&) = delete;

 private:
  static void on_interrupt(int signal) {
    request_cancellation();
    if (python_.sa_handler != SIG_DFL && python_.sa_handler != SIG_IGN) python_.sa_handler(signal);
  }
  static inline int installed_ = 0;  // changed with the GIL held
  static inline struct sigaction python_ {};
};

std::unique_ptr<harness::Launch>& mpi_launch() {
  static std::unique_ptr<harness::Launch> launch;
  return launch;
}

// comm: "auto" (MPI under a launcher for a distributed engine, else threads), "local" or "mpi".
const harness::Launch& launch_for(const std::string& comm, const harness::Engine& engine) {
  static const harness::Launch threads;
  if (comm != "auto" && comm != "local" && comm != "mpi")
    throw InputError(
        fmt::format("comm='{}': use 'auto' (MPI under mpirun, else threads), 'local' (ranks as threads "
                    "of this process) or 'mpi'",
                    comm));
  const bool mpi = comm == "mpi" || (comm == "auto" && engine.distributed() && harness::launched_by_mpi());
  if (!mpi) return threads;
  if (!engine.distributed())
    throw InputError(fmt::format("comm='mpi': the {} engine runs on one rank; use comm='local'", engine.name()));
  if (!mpi_launch())
    mpi_launch() =
        std::make_unique<harness::Launch>(harness::Launch::mpi(harness::watchdog_seconds_from_environment()));
  return *mpi_launch();
}

// The values, moved into a vector the array owns: no copy.
py::array values_array(harness::Values values) {
  return std::visit(
      [](auto& vector) -> py::array {
        using Vector = std::decay_t<decltype(vector)>;
        auto* owned = new Vector(std::move(vector));
        py::capsule owner(owned, [](void* p) { delete static_cast<Vector*>(p); });
        return py::array_t<typename Vector::value_type>(static_cast<py::ssize_t>(owned->size()), owned->data(), owner);
      },
      values);
}

py::dict run(const std::string& algorithm, const Graph& graph, const std::string& engine, int ranks, unsigned threads,
             const std::string& comm, bool verify, const std::map<std::string, std::string>& options) {
  const harness::Registry& registry = builtin_registry();
  harness::RunSpec asked;
  asked.algorithm = algorithm;
  asked.graph = graph.name;
  asked.load = graph.load;
  asked.engine = engine;
  asked.ranks = ranks;
  asked.threads = threads;
  asked.verify = verify;
  for (const auto& [name, value] : options) asked.options.set(name, value);
  // What every rank would refuse alike is refused before MPI starts.
  const harness::RunSpec spec = harness::resolve(registry, asked);
  const harness::Launch& launch = launch_for(comm, registry.engine(spec.engine));
  harness::RunResult result;
  try {
    const InterruptsCancel interrupts;
    py::gil_scoped_release released;
    result = harness::run(registry, spec, launch);
  } catch (const Cancelled&) {
    if (PyErr_CheckSignals() != 0) throw py::error_already_set();  // Python's KeyboardInterrupt
    PyErr_SetNone(PyExc_KeyboardInterrupt);
    throw py::error_already_set();
  }
  // Ctrl-C during a run of an engine that does not stop between rounds (seq, la, mailbox): raised
  // now that the run is over.
  if (PyErr_CheckSignals() != 0) throw py::error_already_set();
  py::dict out("speaker"_a = result.speaker, "rank"_a = launch.rank(),
               "ranks"_a = launch.under_mpi() ? launch.ranks() : spec.ranks);
  if (!result.speaker) return out;
  py::list phases;
  for (const harness::Phase& phase : result.phases)
    phases.append(py::make_tuple(phase.name, phase.label, phase.seconds));
  py::list lines;
  for (const auto& [key, value] : result.summary.lines) lines.append(py::make_tuple(key, value));
  out["json"] = result.to_json().dump();
  out["values"] = values_array(std::move(result.values));
  out["vertices"] = result.vertices;
  out["edges"] = result.edges;
  out["run_seconds"] = result.run_seconds;
  out["phases"] = phases;
  out["summary_lines"] = lines;
  out["description"] = result.description;
  out["engine_details"] = result.stats ? result.stats->describe(false) : std::string();
  if (result.verification)
    out["verification"] =
        py::dict("verifier"_a = result.verification->verifier, "mismatch"_a = result.verification->mismatch,
                 "passed"_a = result.verification->mismatch.empty());
  else
    out["verification"] = py::none();
  return out;
}

}  // namespace

void bind_run(py::module_& module) {
  module.def("run", &run, "algorithm"_a, "graph"_a, "engine"_a, "ranks"_a, "threads"_a, "comm"_a, "verify"_a,
             "options"_a);
  module.def(
      "algorithms",
      [] {
        py::dict out;
        const harness::Registry& registry = builtin_registry();
        for (const harness::Algorithm& algorithm : registry.algorithms()) {
          py::list engines;
          for (const auto& engine : registry.engines())
            if (engine->runs(algorithm)) engines.append(std::string(engine->name()));
          out[py::str(algorithm.name)] = engines;
        }
        return out;
      },
      "Each algorithm's name and the engines that run it, as the registry says.");
  module.def(
      "engines",
      [] {
        py::dict out;
        for (const auto& engine : builtin_registry().engines())
          out[py::str(std::string(engine->name()))] =
              py::dict("about"_a = std::string(engine->about()), "distributed"_a = engine->distributed());
        return out;
      },
      "Each engine's name, what it is, and whether its ranks may be MPI processes.");
  module.def("launched_by_mpi", &harness::launched_by_mpi, "Whether this process is one of an MPI launcher's.");
  // MPI, when a run started it, ends before the interpreter does.
  py::module_::import("atexit").attr("register")(py::cpp_function([] { mpi_launch().reset(); }));
}

}  // namespace courier::python
