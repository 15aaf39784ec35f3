#include "courier/engines/la.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cstdio>
#include <cstring>
#include <optional>

#include "courier/core/error.hpp"
#include "courier/core/machine.hpp"
#include "courier/core/placement.hpp"
#include "courier/core/timer.hpp"
#include "courier/dist/distributed_load.hpp"
#include "courier/dist/shuffle.hpp"
#include "courier/graph/transform.hpp"
#include "courier/harness/fault_injection.hpp"
#include "courier/sync/stack.hpp"
#include "local_stacks.hpp"

namespace courier::engines {

namespace {

using graph::vertex_t;
using harness::Algorithm;
using harness::Launch;
using harness::RunSpec;

// What a rank holds once loaded: its share of the matrix, and the request its kernel will get.
struct Loaded {
  std::optional<la::Matrix> matrix;
  harness::Request request;
  vertex_t vertices = 0;
  std::uint64_t edges = 0;
  double load_seconds = 0, partition_seconds = 0;
};

// The vertex with the most out-edges (the smallest on ties), over the segments led anywhere.
vertex_t largest_out_degree(const la::Matrix& matrix, const dist::Collective& collective) {
  const la::Grid& grid = matrix.grid();
  std::uint64_t best = 0;
  vertex_t at = 0;
  for (unsigned k = 0; k < grid.size(); ++k) {
    if (grid.rank_of(grid.leader(k)) != matrix.rank()) continue;
    const auto degrees = matrix.out_degrees(k);
    for (std::size_t v = 0; v < degrees.size(); ++v)
      if (degrees[v] > best) best = degrees[v], at = grid.begin(k) + v;
  }
  dist::Bytes mine(16);
  std::memcpy(mine.data(), &best, 8);
  std::memcpy(mine.data() + 8, &at, 8);
  for (const dist::Bytes& theirs : collective.all_gather(mine)) {
    std::uint64_t degree = 0;
    vertex_t v = 0;
    std::memcpy(&degree, theirs.data(), 8);
    std::memcpy(&v, theirs.data() + 8, 8);
    if (degree > best || (degree == best && v < at)) best = degree, at = v;
  }
  return at;
}

// This rank's part of a .csr file as edges: for a program that needs both directions of a file
// that does not hold them.
graph::EdgeList edges_of(const graph::CsrRows& rows, graph::EdgeList typed) {
  typed.edges.reserve(rows.edges());
  rows.visit(0, rows.edges(), [&](vertex_t u, vertex_t v, graph::edge_t) { typed.edges.push_back({u, v}); });
  std::visit(
      [&](const auto& w) {
        using W = std::decay_t<decltype(w)>;
        if constexpr (!std::is_same_v<W, std::monostate>)
          typed.weights = std::vector<typename W::value_type>(w.begin(), w.end());
      },
      rows.weights);
  rows.release(0, rows.edges());
  return typed;
}

// The rows of every column group where a member of `rank` owns a tile: [first, last).
std::pair<vertex_t, vertex_t> column_hull(const la::Grid& grid, rank_t rank) {
  vertex_t first = grid.vertices(), last = 0;
  for (unsigned i = 0; i < grid.size(); ++i)
    for (unsigned j = 0; j < grid.size(); ++j)
      if (grid.rank_of(grid.owner(i, j)) == rank)
        first = std::min(first, grid.begin(j)), last = std::max(last, grid.end(j));
  return {std::min(first, last), last};
}

// Collective: this rank's part read and built into tiles. A .csr read as it is goes by its rows:
// each rank reads its tiles' entries out of the file (no edge list, no shuffle). Any other input is
// read as edges, transformed and sent to the owners of their tiles. Every error here is the same
// on every rank (dist::LoadError).
Loaded load_rank(const Algorithm& algorithm, const LaKernel& kernel, const RunSpec& spec, sync::Stack& stack) {
  const dist::Collective collective = stack.collective();
  Loaded loaded{{}, {spec.options, graph::kNoVertex}};
  Timer timer;
  const graph::LoadOptions& load = spec.load;
  std::optional<graph::CsrRows> rows;
  graph::EdgeList part;
  if (!load.symmetrize && !load.drop_self_loops && !load.dedupe && !kernel.reversed) {
    graph::EdgeSlice slice = dist::read_part_rows(spec.graph, load, collective);
    rows = std::move(slice.rows);
    part = std::move(slice.edges);
    if (rows && kernel.both_directions && !rows->symmetric) {  // the same file on every rank
      part = edges_of(*rows, std::move(part));
      rows.reset();
    }
  } else {
    part = dist::read_part(spec.graph, load, collective);
  }
  if (!rows) {
    if (load.symmetrize || kernel.both_directions) part = graph::symmetrize(part);
    if (load.drop_self_loops) part = graph::remove_self_loops(part);
    if (kernel.reversed)
      for (graph::Edge& e : part.edges) std::swap(e.src, e.dst);
  }
  if (kernel.weights == LaKernel::Weights::ignored) part.weights = std::monostate{};
  const auto weight_type =
      static_cast<graph::WeightType>(collective.max(static_cast<std::uint64_t>(part.weight_type())));
  if (kernel.weights == LaKernel::Weights::integers && weight_type != graph::WeightType::u32)
    throw dist::LoadError(
        fmt::format("the la engine's {} needs uint32 edge weights (generate with --weights, or use "
                    "--engine seq)",
                    algorithm.name));
  loaded.vertices = part.num_vertices;
  loaded.load_seconds = collective.max(timer.lap());
  const bool mpi_plus_x = spec.options.text("units") == "processes";
  const la::Grid grid(collective.ranks, mpi_plus_x ? 1 : spec.threads, loaded.vertices,
                      spec.options.text("placement") == "cyclic" ? la::Placement::cyclic : la::Placement::staggered);
  // A program that samples pulls only when it leaves its samples.
  const bool samples = kernel.samples && spec.options.flag("sampling");
  const bool filters_computation = kernel.filters_computation && spec.options.flag("computation-filter");
  const la::Forms forms{.split_sinks = filters_computation,
                        .split_sources = filters_computation,
                        .by_rows = kernel.pulls && (samples || !kernel.samples) &&
                                   spec.options.text("direction") != "push" && !mpi_plus_x,
                        .sampled = samples,
                        .rows_only = kernel.sums_by_rows && spec.options.text("direction") != "push"};
  if (rows) {
    const auto [first, last] = column_hull(grid, collective.rank);
    const graph::CsrRows mine = collective.ranks == 1 ? std::move(*rows) : graph::map_csr_rows(*rows, first, last);
    rows.reset();
    loaded.matrix.emplace(grid, collective.rank, mine, part.has_weights(), collective, forms);
  } else {
    graph::EdgeList mine = dist::shuffle_edges(
        std::move(part),
        [&grid](vertex_t src, vertex_t dst) {
          return grid.rank_of(grid.owner(grid.segment_of(dst), grid.segment_of(src)));
        },
        weight_type, graph::edge_t{1} << 20, collective);
    if (load.dedupe) mine = graph::remove_duplicate_edges(mine);
    loaded.matrix.emplace(grid, collective.rank, std::move(mine), collective, forms);
  }
  loaded.edges = collective.sum(loaded.matrix->nonzeros());
  loaded.partition_seconds = collective.max(timer.lap());
  if (algorithm.needs.source) {
    const vertex_t asked = spec.options.vertex("source");
    if (asked == graph::kNoVertex)
      loaded.request.source = largest_out_degree(*loaded.matrix, collective);
    else if (asked >= loaded.vertices)
      throw dist::LoadError(fmt::format("--source {} is not a vertex: the graph has vertices 0..{}", asked,
                                        loaded.vertices == 0 ? 0 : loaded.vertices - 1));
    else
      loaded.request.source = asked;
  }
  return loaded;
}

// The leaders' values, in segment order per rank, put together on rank 0 (empty elsewhere).
harness::Values gather(harness::Values mine, const la::Grid& grid, const dist::Collective& collective) {
  // One rank leads every segment, in order (la/grid.hpp): its values are the answer as they are.
  if (collective.ranks == 1) return mine;
  return std::visit(
      [&](const auto& values) -> harness::Values {
        using T = typename std::decay_t<decltype(values)>::value_type;
        std::vector<dist::Bytes> outgoing(static_cast<std::size_t>(collective.ranks));
        outgoing[0].resize(values.size() * sizeof(T));
        if (!values.empty()) std::memcpy(outgoing[0].data(), values.data(), outgoing[0].size());
        const std::vector<dist::Bytes> received = collective.exchange(std::move(outgoing));
        std::vector<T> all;
        if (collective.rank != 0) return all;
        all.resize(grid.vertices());
        std::vector<std::size_t> at(received.size(), 0);
        for (unsigned k = 0; k < grid.size(); ++k) {
          const auto r = static_cast<std::size_t>(grid.rank_of(grid.leader(k)));
          const std::size_t bytes = (grid.end(k) - grid.begin(k)) * sizeof(T);
          if (at[r] + bytes > received[r].size()) throw Error("la: a rank sent fewer values than its segments hold");
          if (bytes) std::memcpy(all.data() + grid.begin(k), received[r].data() + at[r], bytes);
          at[r] += bytes;
        }
        return all;
      },
      mine);
}

la::Direction direction_of(const std::string& text) {
  return text == "push" ? la::Direction::push : text == "pull" ? la::Direction::pull : la::Direction::automatic;
}

// What the rank's threads exchange, for placement (Grid::exchange): in the MPI+X mode each rank
// is one unit, whose exchanges its first thread stands for (a rank keeps to one package anyway).
std::vector<double> placement_exchange(const la::Grid& grid, const RunSpec& spec) {
  std::vector<double> units = grid.exchange();
  if (grid.threads() == spec.threads) return units;
  const std::size_t p = static_cast<std::size_t>(grid.ranks()), t = spec.threads, n = grid.size(), wide = p * t;
  std::vector<double> out(wide * wide, 0.0);
  for (std::size_t a = 0; a < n; ++a)
    for (std::size_t b = 0; b < n; ++b) out[(a / grid.threads() * t) * wide + b / grid.threads() * t] += units[a * n + b];
  return out;
}

struct RankOutcome {
  harness::Output output;
  LaStats stats;
  double run_seconds = 0;
  double gather_seconds = 0;  // the values to rank 0, after the run
};

RankOutcome run_rank(const LaKernel& kernel, const Loaded& loaded, const RunSpec& spec, sync::Stack& stack,
                     const PlacementOptions& placement) {
  const dist::Collective collective = stack.collective();
  comm::Runtime* runtime = stack.runtime();
  if (runtime == nullptr) throw InputError("--engine la runs on --channel lci");
  RankOutcome outcome;
  Timer timer;
  harness::maybe_fail(collective.rank, "run");
  std::vector<unsigned> pus = placement_for(spec.threads, placement, placement_exchange(loaded.matrix->grid(), spec));
  std::vector<int> packages;
  for (unsigned pu : pus) packages.push_back(Machine::of_this_process().package_of(pu));
  const std::string where = pus.empty() ? fmt::format("rank {}: threads not pinned", collective.rank)
                                        : fmt::format("rank {}: threads on PUs {} of packages {}", collective.rank,
                                                      fmt::join(pus, ","), fmt::join(packages, ","));
  LaStats& s = outcome.stats;
  for (const dist::Bytes& line :
       collective.all_gather(dist::Bytes(reinterpret_cast<const std::byte*>(where.data()),
                                         reinterpret_cast<const std::byte*>(where.data()) + where.size())))
    s.placement.push_back(std::string(reinterpret_cast<const char*>(line.data()), line.size()));
  // The placement in force, before the run (as the mailbox engine echoes its configuration).
  if (spec.verbose && collective.rank == 0) {
    std::string text = "la placement (NUMA-aware, paper 003 Fig. 5: group partners on one package where they fit):\n";
    for (const std::string& line : s.placement) text += "  " + line + "\n";
    std::fputs(text.c_str(), stderr);
    std::fflush(stderr);
  }
  LaOutput out =
      kernel.run(LaContext{*loaded.matrix, *runtime, stack.channel(), spec.options.flag("activity-filter"),
                           std::move(pus), spec.options.text("units") == "processes" ? spec.threads : 1,
                           spec.options.text("endpoints") == "mpi" ? la::Messages::mpi : la::Messages::endpoints,
                           direction_of(spec.options.text("direction"))},
                 loaded.request);
  outcome.run_seconds = collective.max(timer.lap());
  outcome.output = {gather(std::move(out.values), loaded.matrix->grid(), collective), std::move(out.facts)};
  outcome.gather_seconds = collective.max(timer.lap());
  const la::Grid& grid = loaded.matrix->grid();
  s.ranks = static_cast<unsigned>(grid.ranks());
  s.threads = grid.threads();
  s.grid = grid.size();
  s.nonzeros = collective.sum(loaded.matrix->nonzeros());
  s.tile_bytes = collective.sum(loaded.matrix->bytes());
  s.model = out.stats;
  s.model.messages = collective.sum(out.stats.messages);
  s.model.bytes = collective.sum(out.stats.bytes);
  s.model.sparse_segments = collective.sum(out.stats.sparse_segments);
  s.model.dense_segments = collective.sum(out.stats.dense_segments);
  s.model.skipped_nonzeros = collective.sum(out.stats.skipped_nonzeros);
  s.model.skipped_source_nonzeros = collective.sum(out.stats.skipped_source_nonzeros);
  s.model.pulled_tiles = collective.sum(out.stats.pulled_tiles);
  s.model.sampled_iterations = out.stats.sampled_iterations;
  s.model.broadcast_seconds = collective.max(out.stats.broadcast_seconds);
  s.model.combine_seconds = collective.max(out.stats.combine_seconds);
  s.model.apply_seconds = collective.max(out.stats.apply_seconds);
  s.model.collective_seconds = collective.max(out.stats.collective_seconds);
  s.tile_map = spec.verbose ? grid.map() : "";
  s.load_seconds = loaded.load_seconds;
  s.partition_seconds = loaded.partition_seconds;
  return outcome;
}

harness::EngineRun finish(RankOutcome root, const Loaded& loaded, const RunSpec& spec, const std::string& ranks_text) {
  harness::EngineRun run;
  run.output = std::move(root.output);
  run.request = loaded.request;
  run.vertices = loaded.vertices;
  run.edges = loaded.edges;
  run.run_seconds = root.run_seconds;
  run.phases = {{"load", "load", loaded.load_seconds},
                {"partition", "partition", loaded.partition_seconds},
                {"gather", "gather", root.gather_seconds}};
  const la::Grid& grid = loaded.matrix->grid();
  const bool cyclic = grid.placement() == la::Placement::cyclic;
  run.description = spec.options.text("units") == "threads"
                        ? fmt::format("la engine (MPI*X, {}), {} x {} threads", cyclic ? "2D-Cyclic" : "2DT-Staggered",
                                      ranks_text, spec.threads)
                        : fmt::format("la engine (MPI+X, {}), {} x {} threads forked per tile",
                                      cyclic ? "2D-Cyclic" : "2D-Staggered", ranks_text, spec.threads);
  run.stats = std::make_shared<LaStats>(std::move(root.stats));
  return run;
}

sync::StackSpec stack_spec(const RunSpec& spec) {
  return {.channel = "lci", .threads_per_rank = spec.threads, .transport = spec.options.text("transport")};
}

class LaEngine final : public harness::EngineFor<LaKernel> {
 public:
  std::string_view name() const override { return "la"; }
  std::string_view about() const override {
    return "the linear-algebra engine (Graphite): semiring SpMSpV on 2D thread-partitioned tiles, MPI*X";
  }
  bool distributed() const override { return true; }

  std::vector<harness::OptionSpec> options() const override {
    return {{.name = "units",
             .help = "the units of partitioning and communication: threads (MPI*X: every thread owns tiles and an "
                     "endpoint) or processes (MPI+X: 2D process tiles, threads forked and joined per tile)",
             .fallback = "threads",
             .choices = {"threads", "processes"}},
            {.name = "placement",
             .help = "how tiles are dealt to the units: staggered (2DT-Staggered over threads, 2D-Staggered over "
                     "processes) or cyclic (2D-Cyclic)",
             .fallback = "staggered",
             .choices = {"staggered", "cyclic"}},
            {.name = "activity-filter",
             .help = "do not send and read x and partial y as (index, value) pairs when few vertices are active",
             .fallback = "true",
             .kind = harness::OptionSpec::Kind::flag_off},
            {.name = "computation-filter",
             .help = "do not skip, in stationary algorithms, the vertices without out-edges in the iterations that "
                     "do not need them (pagerank with --tolerance 0: all but the last), nor fold the products out of "
                     "vertices without in-edges into one sum made at load (pagerank)",
             .fallback = "true",
             .kind = harness::OptionSpec::Kind::flag_off},
            {.name = "endpoints",
             .help = "what carries the threads' messages between ranks: courier (the comm runtime's endpoints) or "
                     "mpi (the baseline: raw MPI_Ibcast over column groups, MPI_Isend / MPI_Irecv over row groups, by the "
                     "threads under MPI_THREAD_MULTIPLE; needs mpirun)",
             .fallback = "courier",
             .choices = {"courier", "mpi"}},
            {.name = "transport",
             .help = "under mpirun, what the comm runtime's endpoints send over: mpi, or ofi (libfabric; its "
                     "FI_PROVIDER picks the provider, e.g. shm or tcp); without a launcher ranks are threads of this "
                     "process on the local transport",
             .fallback = "mpi",
             .choices = {"mpi", "ofi"}},
            {.name = "direction",
             .help = "which way the programs that can pull (bfs) run each tile: auto (pull with early exit "
                     "when the frontier is large against what is unsettled, as direction-optimizing bfs "
                     "does; else push), push (always; cc then pushes its largest label too, and pagerank "
                     "pushes by columns instead of summing tiles kept by rows) or pull (whenever it can; for tests)",
             .fallback = "auto",
             .choices = {"auto", "push", "pull"}},
            {.name = "sampling",
             .help = "do not run cc on each tile's first two entries per column before the whole tiles (Afforest's "
                     "sampling, as LAGraph's connected components does)",
             .fallback = "true",
             .kind = harness::OptionSpec::Kind::flag_off},
            {.name = "pin",
             .help = "do not pin each rank's threads to processing units",
             .fallback = "true",
             .kind = harness::OptionSpec::Kind::flag_off}};
  }

  harness::EngineRun run(const Algorithm& algorithm, const RunSpec& spec, const Launch& launch) const override {
    const LaKernel& kernel = *algorithm.kernel<LaKernel>(name());
    const std::string transport = spec.options.text("transport");
    if (spec.options.text("endpoints") == "mpi" && transport != "mpi")
      throw InputError(fmt::format("--endpoints mpi sends the threads' messages over raw MPI, not over --transport {}: "
                                   "use --endpoints courier with it",
                                   transport));
    if (!launch.under_mpi()) {
      if (spec.options.text("endpoints") == "mpi")
        throw InputError(
            "--endpoints mpi sends over raw MPI between processes: run under mpirun, or use --endpoints courier");
      sync::Stack::check_local(stack_spec(spec));
      harness::EngineRun run;
      run_local_stacks(spec.ranks, spec.threads, stack_spec(spec), [&](sync::Stack& stack) {
        const Loaded loaded = load_rank(algorithm, kernel, spec, stack);
        // Ranks are threads of this process: each takes its own slice of the PUs.
        const rank_t rank = stack.channel().rank();
        RankOutcome mine =
            run_rank(kernel, loaded, spec, stack, {spec.options.flag("pin"), rank, stack.channel().ranks()});
        if (rank == 0) run = finish(std::move(mine), loaded, spec, fmt::format("{} ranks", spec.ranks));
      });
      return run;
    }
#ifdef COURIER_HAVE_MPI
    std::unique_ptr<sync::Stack> stack = sync::Stack::open(stack_spec(spec), MPI_COMM_WORLD);
    std::optional<Loaded> loaded;
    harness::ending_the_run_on_failure(launch.rank(), launch.ranks(),
                                       [&] { loaded.emplace(load_rank(algorithm, kernel, spec, *stack)); });
    RankOutcome outcome;
    harness::ending_the_run_on_failure(launch.rank(), launch.ranks(), [&] {
      outcome = run_rank(kernel, *loaded, spec, *stack, {.pin = spec.options.flag("pin")});
    });
    stack->close();
    const std::string over = spec.options.text("endpoints") == "mpi" ? "raw MPI" : transport + " transport";
    return finish(std::move(outcome), *loaded, spec, fmt::format("{} ranks (MPI, {})", launch.ranks(), over));
#else
    throw InputError("this courier was built without MPI");
#endif
  }
};

}  // namespace

nlohmann::json LaStats::to_json() const {
  return {{"ranks", ranks},
          {"threads", threads},
          {"grid", grid},
          {"nonzeros", nonzeros},
          {"tile_bytes", tile_bytes},
          {"iterations", model.iterations},
          {"messages", model.messages},
          {"bytes", model.bytes},
          {"sparse_segments", model.sparse_segments},
          {"dense_segments", model.dense_segments},
          {"skipped_nonzeros", model.skipped_nonzeros},
          {"skipped_source_nonzeros", model.skipped_source_nonzeros},
          {"pulled_tiles", model.pulled_tiles},
          {"sampled_iterations", model.sampled_iterations},
          {"phase_seconds",
           {{"broadcast", model.broadcast_seconds},
            {"combine", model.combine_seconds},
            {"apply", model.apply_seconds},
            {"collective", model.collective_seconds}}},
          {"load_seconds", load_seconds},
          {"partition_seconds", partition_seconds},
          {"placement", placement}};
}

std::string LaStats::describe(bool verbose) const {
  std::string text = fmt::format(
      "Engine:     {} iterations, {} x {} tiles, {} non-zeros in {} bytes of tiles, {} messages, {} bytes, "
      "x segments {} dense / {} as pairs{}{}{}{}\n",
      model.iterations, grid, grid, nonzeros, tile_bytes, model.messages, model.bytes, model.dense_segments,
      model.sparse_segments,
      model.skipped_nonzeros == 0 ? "" : fmt::format(", {} products into sinks skipped", model.skipped_nonzeros),
      model.skipped_source_nonzeros == 0
          ? ""
          : fmt::format(", {} products out of sources skipped (summed once at load)", model.skipped_source_nonzeros),
      model.pulled_tiles == 0 ? "" : fmt::format(", {} tile products pulled", model.pulled_tiles),
      model.sampled_iterations == 0 ? "" : fmt::format(", {} on the samples", model.sampled_iterations));
  if (verbose) {
    text += fmt::format(
        "Phases:     broadcast {:.4f} s, combine {:.4f} s, apply {:.4f} s, collective {:.4f} s (the slowest thread's "
        "each)\n",
        model.broadcast_seconds, model.combine_seconds, model.apply_seconds, model.collective_seconds);
    text += tile_map;
    for (const std::string& line : placement) text += "Placement:  " + line + "\n";
  }
  return text;
}

std::shared_ptr<const harness::Engine> la_engine() { return std::make_shared<LaEngine>(); }

}  // namespace courier::engines
