// courier.Graph's C++ side: a file or generator spec, or a graph in memory made from numpy arrays
// (CSR arrays borrowed where their layout is Courier's; edge arrays copied into CSR), its facts
// (courier info's), and its CSR arrays handed to numpy without a copy.
#include <fmt/format.h>

#include <filesystem>
#include <variant>

#include "bindings.hpp"
#include "courier/core/error.hpp"
#include "courier/graph/io.hpp"
#include "courier/graph/stats.hpp"

namespace courier::python {

using namespace pybind11::literals;

std::shared_ptr<const void> keep_alive(py::object object) {
  return std::shared_ptr<const void>(new py::object(std::move(object)), [](const void* held) {
    py::gil_scoped_acquire gil;
    delete static_cast<const py::object*>(held);
  });
}

namespace {

// Arrays whose layout is already T, contiguous, are borrowed; others are converted (a copy) by numpy.
template <class T>
using Contiguous = py::array_t<T, py::array::c_style | py::array::forcecast>;

template <class T>
Buffer<T> borrow(const Contiguous<T>& array) {
  return Buffer<T>(keep_alive(array), array.data(), static_cast<std::size_t>(array.size()));
}

graph::LoadOptions transforms(bool symmetrize, bool drop_self_loops, bool dedupe) {
  graph::LoadOptions load;
  load.symmetrize = symmetrize;
  load.drop_self_loops = drop_self_loops;
  load.dedupe = dedupe;
  return load;
}

Graph from_spec(const std::string& spec, bool symmetrize, bool drop_self_loops, bool dedupe, bool weights,
                std::uint64_t seed, int base) {
  Graph graph{spec, transforms(symmetrize, drop_self_loops, dedupe)};
  if (graph::is_generator_spec(spec)) {
    if (base != 0) throw InputError(fmt::format("base={}: reads text files, and {} is generated: drop it", base, spec));
    graph.load.weights = weights;
    graph.load.seed = seed;
    return graph;
  }
  if (weights || seed != 1)
    throw InputError(
        fmt::format("{}: is for generated graphs (kron:S, urand:S, path:N, grid:RxC), and {} is a file: "
                    "drop it",
                    weights ? "weights=True" : "seed", spec));
  const graph::Format format = graph::format_from_path(spec);  // an unknown extension fails here
  if (!std::filesystem::exists(spec)) throw InputError(fmt::format("{}: no such file", spec));
  if (base != 0 && format != graph::Format::text)
    throw InputError(
        fmt::format("base={}: is for text edge lists, and {} is {}: drop it", base, spec, graph::to_string(format)));
  graph.load.read.base = base;
  return graph;
}

graph::CsrWeights csr_weights(const py::object& weights) {
  if (weights.is_none()) return {};
  const py::array array = py::array::ensure(weights);
  if (array.dtype().is(py::dtype::of<float>())) return borrow(Contiguous<float>::ensure(array));
  if (array.dtype().is(py::dtype::of<std::uint32_t>())) return borrow(Contiguous<std::uint32_t>::ensure(array));
  throw InputError(fmt::format("weights of type {}: Courier keeps uint32 or float32 weights",
                               py::str(array.dtype()).cast<std::string>()));
}

// A CSR graph from its arrays (uint64 offsets and targets, uint32 or float32 weights), checked as a
// reader checks a .csr file: offsets from 0, non-decreasing, ending at the edge count; targets
// below the vertex count.
Graph from_csr(const Contiguous<std::uint64_t>& offsets, const Contiguous<std::uint64_t>& targets,
               const py::object& weights, std::string name, bool symmetrize, bool drop_self_loops, bool dedupe) {
  if (offsets.ndim() != 1 || targets.ndim() != 1) throw InputError(name + ": CSR arrays must be one-dimensional");
  if (offsets.size() == 0) throw InputError(name + ": the row offsets need one entry more than there are vertices");
  graph::CsrWeights w = csr_weights(weights);
  Buffer<std::uint64_t> rows = borrow(offsets), columns = borrow(targets);
  {
    py::gil_scoped_release released;
    const graph::vertex_t n = rows.size() - 1;
    if (rows[0] != 0) throw InputError(fmt::format("{}: the row offsets start at {}, not 0", name, rows[0]));
    for (graph::vertex_t v = 0; v < n; ++v)
      if (rows[v + 1] < rows[v])
        throw InputError(fmt::format("{}: row offset {} ({}) is below row offset {} ({}): offsets never decrease", name,
                                     v + 1, rows[v + 1], v, rows[v]));
    if (rows[n] != columns.size())
      throw InputError(
          fmt::format("{}: the row offsets end at {} but there are {} column indices", name, rows[n], columns.size()));
    for (std::size_t k = 0; k < columns.size(); ++k)
      if (columns[k] >= n)
        throw InputError(fmt::format("{}: column index {} of entry {} is not a vertex of {} (0 to {})", name,
                                     static_cast<std::int64_t>(columns[k]), k, n, n == 0 ? 0 : n - 1));
  }
  Graph graph{std::move(name), transforms(symmetrize, drop_self_loops, dedupe)};
  graph.load.memory = std::make_shared<const graph::Csr>(std::move(rows), std::move(columns), std::move(w));
  return graph;
}

// A graph from edge arrays (uint64 sources and targets, weights as from_csr's): a copy, in CSR order.
Graph from_edges(const Contiguous<std::uint64_t>& sources, const Contiguous<std::uint64_t>& targets,
                 const py::object& weights, std::uint64_t vertices, std::string name, bool symmetrize,
                 bool drop_self_loops, bool dedupe) {
  if (sources.ndim() != 1 || targets.ndim() != 1 || sources.size() != targets.size())
    throw InputError(
        fmt::format("{}: {} sources but {} targets: give one of each per edge", name, sources.size(), targets.size()));
  graph::EdgeList edges;
  edges.num_vertices = vertices;
  const graph::CsrWeights w = csr_weights(weights);
  std::visit(
      [&](const auto& given) {
        if constexpr (!std::is_same_v<std::decay_t<decltype(given)>, std::monostate>) {
          if (given.size() != static_cast<std::size_t>(sources.size()))
            throw InputError(fmt::format("{}: {} weights for {} edges", name, given.size(), sources.size()));
          edges.weights = std::vector(given.begin(), given.end());
        }
      },
      w);
  Graph graph{std::move(name), transforms(symmetrize, drop_self_loops, dedupe)};
  const std::uint64_t* s = sources.data();
  const std::uint64_t* t = targets.data();
  const std::size_t m = sources.size();
  py::gil_scoped_release released;
  edges.edges.resize(m);
  for (std::size_t k = 0; k < m; ++k) {
    if (s[k] >= vertices || t[k] >= vertices)
      throw InputError(fmt::format("{}: edge {} ({} -> {}) names a vertex beyond the {} vertices (0 to {})", graph.name,
                                   k, static_cast<std::int64_t>(s[k]), static_cast<std::int64_t>(t[k]), vertices,
                                   vertices == 0 ? 0 : vertices - 1));
    edges.edges[k] = {s[k], t[k]};
  }
  graph.load.memory = std::make_shared<const graph::Csr>(graph::build_csr(edges));
  return graph;
}

graph::Csr load(const Graph& graph) {
  py::gil_scoped_release released;
  return graph::load_graph(graph.name, graph.load);
}

// A read-only numpy view of part of a Csr, which the array keeps alive (a mapped file stays mapped).
template <class T>
py::array view(std::span<const T> part, const std::shared_ptr<const graph::Csr>& csr) {
  auto* held = new std::shared_ptr<const graph::Csr>(csr);
  py::capsule owner(held, [](void* p) { delete static_cast<std::shared_ptr<const graph::Csr>*>(p); });
  py::array array = py::array_t<T>({static_cast<py::ssize_t>(part.size())}, {sizeof(T)}, part.data(), owner);
  py::detail::array_proxy(array.ptr())->flags &= ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
  return array;
}

// (offsets, targets, weights or None), sharing the graph's storage.
py::tuple csr_arrays(const Graph& graph) {
  const auto csr = std::make_shared<const graph::Csr>(load(graph));
  py::object weights = py::none();
  if (csr->weight_type() == graph::WeightType::u32) weights = view(csr->weights_as<std::uint32_t>(), csr);
  if (csr->weight_type() == graph::WeightType::f32) weights = view(csr->weights_as<float>(), csr);
  return py::make_tuple(view(csr->offsets(), csr), view(csr->targets(), csr), weights);
}

py::dict info(const Graph& graph) {
  const graph::Csr csr = load(graph);
  graph::GraphStats s;
  {
    py::gil_scoped_release released;
    s = graph::describe(csr);
  }
  return py::dict("vertices"_a = s.vertices, "edges"_a = s.edges, "weights"_a = graph::to_string(s.weights),
                  "min_out_degree"_a = s.min_out_degree, "max_out_degree"_a = s.max_out_degree,
                  "mean_out_degree"_a = s.mean_out_degree, "self_loops"_a = s.self_loops,
                  "duplicate_edges"_a = s.duplicate_edges, "isolated_vertices"_a = s.isolated_vertices,
                  "components"_a = s.components, "largest_component"_a = s.largest_component);
}

}  // namespace

void bind_graph(py::module_& module) {
  py::class_<Graph>(module, "Graph", "A graph for courier.run: use courier.Graph, which wraps this.")
      .def(py::init(&from_spec), "spec"_a, "symmetrize"_a = false, "drop_self_loops"_a = false, "dedupe"_a = false,
           "weights"_a = false, "seed"_a = 1, "base"_a = 0)
      .def_static("from_csr", &from_csr, "offsets"_a, "targets"_a, "weights"_a, "name"_a, "symmetrize"_a = false,
                  "drop_self_loops"_a = false, "dedupe"_a = false)
      .def_static("from_edges", &from_edges, "sources"_a, "targets"_a, "weights"_a, "vertices"_a, "name"_a,
                  "symmetrize"_a = false, "drop_self_loops"_a = false, "dedupe"_a = false)
      .def_property_readonly("name", [](const Graph& g) { return g.name; })
      .def_property_readonly("in_memory", [](const Graph& g) { return g.load.memory != nullptr; })
      .def("info", &info)
      .def("csr_arrays", &csr_arrays);
}

}  // namespace courier::python
