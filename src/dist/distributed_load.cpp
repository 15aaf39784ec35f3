#include "courier/dist/distributed_load.hpp"

#include <fmt/format.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include <algorithm>
#include <array>
#include <cstring>
#include <limits>
#include <optional>
#include <span>

#include "courier/core/memory.hpp"
#include "courier/core/progress.hpp"
#include "courier/core/timer.hpp"
#include "courier/dist/agreed_failure.hpp"
#include "courier/dist/shuffle.hpp"
#include "courier/graph/io.hpp"
#include "courier/graph/partitioned_csr.hpp"
#include "courier/graph/slice.hpp"
#include "courier/graph/transform.hpp"

namespace courier::dist {

namespace {

// Gives the heap's free pages back to the system, between steps. glibc keeps what a step freed in
// its arenas, resident (arrays of a few MB go there once a larger one was freed), and the next
// step's arrays do not always land in it: at 4 ranks of kron:20 under iec, 70 MB of freed in-degree
// counts were resident through the shuffle, 85 MB of its messages while the rows were built, and
// 40 MB of what the build freed through the run (the trims take 6% off iec's peak, 3% off hash's).
// Not under ASan or TSan: their allocators replace glibc's, whose arenas malloc_trim then walks
// uninitialised (a crash in the sanitizer builds).
#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define COURIER_FOREIGN_ALLOCATOR 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define COURIER_FOREIGN_ALLOCATOR 1
#endif
void trim_heap() {
#if defined(__GLIBC__) && !defined(COURIER_FOREIGN_ALLOCATOR)
  malloc_trim(0);
#endif
}

Bytes bytes_of(const std::string& text) {
  Bytes out(text.size());
  if (!text.empty()) std::memcpy(out.data(), text.data(), text.size());
  return out;
}

std::string text_of(const Bytes& bytes) { return std::string(reinterpret_cast<const char*>(bytes.data()), bytes.size()); }

template <class T>
Bytes array_bytes(const T* data, std::size_t count) {
  Bytes out(count * sizeof(T));
  if (count) std::memcpy(out.data(), data, out.size());
  return out;
}

// Runs `step`; if it failed on any rank, every rank throws LoadError with the first rank's message.
template <class Step>
void agreed(const Collective& collective, Step&& step) {
  std::string error;
  try {
    step();
  } catch (const std::exception& e) {
    error = e.what();
    if (error.empty()) error = "unknown error";
  }
  const std::string first = collective.first_error(error);
  if (!first.empty()) throw LoadError(first);
}

// This rank's block of per-vertex counts summed over every rank (a reduce-scatter): outgoing[r]
// is block r of this rank's counts, `size` this rank's block's length. Each part is freed once added.
template <class C>
std::vector<C> summed_block(std::vector<Bytes> outgoing, std::size_t size, const Collective& collective) {
  std::vector<Bytes> parts = collective.exchange(std::move(outgoing));
  std::vector<C> mine(size, 0);
  for (Bytes& part : parts) {
    if (part.size() != size * sizeof(C)) throw Error("dist: a rank sent a block of counts of the wrong size");
    for (std::size_t i = 0; i < size; ++i) {
      C c;
      std::memcpy(&c, part.data() + i * sizeof c, sizeof c);
      mine[i] += c;
    }
    Bytes().swap(part);
  }
  return mine;
}

// Global per-vertex counts from each rank's counts of its own edges: each rank sums one block of
// vertices (reduce-scatter), then every rank gathers all blocks. Vertex-sized, as in Gemini.
std::vector<edge_t> global_counts(std::vector<edge_t> local, const Collective& collective) {
  const vertex_t n = local.size();
  const auto ranks = static_cast<std::size_t>(collective.ranks);
  if (ranks == 1) return local;
  const auto block = [&](std::size_t r) { return n * r / ranks; };
  std::vector<Bytes> outgoing(ranks);
  for (std::size_t r = 0; r < ranks; ++r) outgoing[r] = array_bytes(local.data() + block(r), block(r + 1) - block(r));
  const auto me = static_cast<std::size_t>(collective.rank);
  const std::vector<edge_t> mine = summed_block<edge_t>(std::move(outgoing), block(me + 1) - block(me), collective);
  const std::vector<Bytes> blocks = collective.all_gather(array_bytes(mine.data(), mine.size()));
  for (std::size_t r = 0; r < ranks; ++r) {
    if (blocks[r].size() != (block(r + 1) - block(r)) * sizeof(edge_t)) throw Error("global_counts: wrong block size");
    if (!blocks[r].empty()) std::memcpy(local.data() + block(r), blocks[r].data(), blocks[r].size());
  }
  return local;
}

std::vector<edge_t> degrees(const graph::EdgeList& edges, bool by_target, const Collective& collective) {
  std::vector<edge_t> count(edges.num_vertices, 0);
  for (const graph::Edge& e : edges.edges) ++count[by_target ? e.dst : e.src];
  return global_counts(std::move(count), collective);
}

graph::WeightType agreed_weight_type(graph::EdgeList& mine, const Collective& collective) {
  const auto type = static_cast<graph::WeightType>(collective.max(static_cast<std::uint64_t>(mine.weight_type())));
  if (type == mine.weight_type()) return type;
  if (!mine.edges.empty())
    throw Error(fmt::format("distributed load: rank {} has {} weights where another has {}", collective.rank,
                            graph::to_string(mine.weight_type()), graph::to_string(type)));
  if (type == graph::WeightType::u32) mine.weights = std::vector<std::uint32_t>();
  if (type == graph::WeightType::f32) mine.weights = std::vector<float>();
  return type;
}

// iec's plan from each rank's rows: every rank counts its targets' in-degrees (C: wide enough for
// every edge), each sums one block of the vertices' counts from every rank (a reduce-scatter) and
// finds the cuts that fall in it. No rank holds every vertex's sum: at 4 ranks of kron:20 the
// counts, their copies and their gathering were 100 MB at the partition's peak.
template <class C>
PartitionPlan plan_by_in_degree(const graph::CsrRows& rows, vertex_t n, const Collective& collective) {
  const auto ranks = static_cast<std::size_t>(collective.ranks), me = static_cast<std::size_t>(collective.rank);
  const auto block = [&](std::size_t r) { return n * r / ranks; };
  std::vector<Bytes> outgoing(ranks);
  {
    std::vector<C> in(n, 0);
    constexpr edge_t kWindow = edge_t{1} << 18;  // 2 MiB of targets a window: every rank's is mapped at once
    for (edge_t a = 0; a < rows.edges(); a += kWindow) {
      const edge_t b = std::min(rows.edges(), a + kWindow);
      for (edge_t k = a; k < b; ++k) ++in[rows.targets[k]];
      rows.release(a, b);
    }
    for (std::size_t r = 0; r < ranks; ++r) {  // each block's pages go once copied
      outgoing[r] = array_bytes(in.data() + block(r), block(r + 1) - block(r));
      release_pages(in.data() + block(r), (block(r + 1) - block(r)) * sizeof(C));
    }
  }
  const std::vector<C> mine = summed_block<C>(std::move(outgoing), block(me + 1) - block(me), collective);
  // The weight before my block and in all, then the cuts in it, from every rank.
  double before = 0, total = 0;
  const double weight = PartitionPlan::block_weight(collective.ranks, std::span<const C>(mine));
  const std::vector<Bytes> weights = collective.all_gather(array_bytes(&weight, 1));
  for (std::size_t r = 0; r < ranks; ++r) {
    if (weights[r].size() != sizeof(double)) throw Error("dist: a rank sent a block weight of the wrong size");
    double w;
    std::memcpy(&w, weights[r].data(), sizeof w);
    total += w;
    if (r < me) before += w;
  }
  std::vector<std::uint64_t> found;  // (rank, bound) pairs
  for (const auto& [r, bound] :
       PartitionPlan::cuts_in_block(collective.ranks, block(me), std::span<const C>(mine), before, total))
    found.insert(found.end(), {static_cast<std::uint64_t>(r), bound});
  std::vector<vertex_t> bounds(ranks + 1, n);
  bounds[0] = 0;
  for (const Bytes& cuts : collective.all_gather(array_bytes(found.data(), found.size()))) {
    if (cuts.size() % (2 * sizeof(std::uint64_t)) != 0) throw Error("dist: a rank sent malformed cuts");
    for (std::size_t at = 0; at < cuts.size(); at += 2 * sizeof(std::uint64_t)) {
      std::uint64_t r, bound;
      std::memcpy(&r, cuts.data() + at, sizeof r);
      std::memcpy(&bound, cuts.data() + at + sizeof r, sizeof bound);
      if (r == 0 || r >= ranks || bound > n) throw Error("dist: a rank sent a cut outside the graph");
      bounds[r] = bound;
    }
  }
  return PartitionPlan(Policy::iec, std::move(bounds));
}

// A partition's plan and the vertex with the most out-edges (the smallest on ties), from degrees
// that are freed before the local graph is built: n words a rank less at the partition's peak.
struct Planned {
  PartitionPlan plan;
  vertex_t largest;
};

vertex_t most_out_edges(const std::vector<edge_t>& out_degree) {
  vertex_t largest = 0;
  for (vertex_t v = 1; v < out_degree.size(); ++v)
    if (out_degree[v] > out_degree[largest]) largest = v;
  return largest;
}

// The same from each rank's rows of a .csr: the best of every part's best.
vertex_t most_out_edges(const graph::CsrRows& rows, const Collective& collective) {
  std::array<std::uint64_t, 2> best{0, 0};  // out-degree, vertex
  for (vertex_t r = 0; r < rows.rows(); ++r)
    if (const edge_t d = rows.offsets[r + 1] - rows.offsets[r]; d > best[0]) best = {d, rows.first + r};
  Bytes mine(sizeof best);
  std::memcpy(mine.data(), best.data(), sizeof best);
  vertex_t largest = 0;
  edge_t most = 0;
  for (const Bytes& theirs : collective.all_gather(mine)) {
    if (theirs.size() != sizeof best) throw Error("dist: a malformed out-degree");
    std::memcpy(best.data(), theirs.data(), sizeof best);
    if (best[0] > most || (best[0] == most && most > 0 && best[1] < largest)) {
      most = best[0];
      largest = best[1];
    }
  }
  return largest;
}

// What every way of partitioning ends with: the mirrors agreed (unless a file says already) and
// the partition's facts.
DistributedGraph finish(LocalGraph local, edge_t loaded_edges, graph::WeightType weight_type, vertex_t largest,
                        Timer& timer, const Collective& collective, bool connect = true) {
  if (connect) connect_mirrors(local, collective);
  trim_heap();  // before the run: what building the graph freed
  const edge_t edges = collective.sum(local.edges());
  const PartitionQuality q = quality(local, collective);
  const GraphBytes mine_bytes = local.bytes();
  const GraphBytes bytes{collective.sum(mine_bytes.csr), collective.sum(mine_bytes.in_edges),
                         collective.sum(mine_bytes.proxies), collective.sum(mine_bytes.maps)};
  return DistributedGraph{
      std::move(local), edges, loaded_edges, weight_type, largest, q, bytes, 0.0, collective.max(timer.lap()), ""};
}

// Names each step of partitioning to the tests' hook (before_step) and to a user watching a
// terminal ("partitioning: shuffle (2.1 s)"), so a long partition shows where it is.
class Steps {
 public:
  explicit Steps(const DistributedLoadOptions& options)
      : options_(options), line_("partitioning", std::chrono::milliseconds(0)) {}
  void operator()(std::string_view name) {
    if (options_.before_step) options_.before_step(name);
    if (line_.active()) line_.show(fmt::format("{} ({:.1f} s)", name, timer_.elapsed()));
  }

 private:
  const DistributedLoadOptions& options_;
  ProgressLine line_;
  Timer timer_;
};

// build_distributed's steps, on a failure-aware collective.
DistributedGraph partition(graph::EdgeList mine, const DistributedLoadOptions& options, const Collective& collective) {
  Steps step(options);
  Timer timer;
  // Every rank counts degrees over all n ids, and the plan and the maps take as much again: ids
  // far beyond the edges (one edge "4294967295 0") would otherwise end in a bare bad_alloc.
  check_memory(fmt::format("partitioning a graph of {} vertices (ids up to {}) on each rank", mine.num_vertices,
                           mine.num_vertices == 0 ? 0 : mine.num_vertices - 1),
               std::uint64_t{mine.num_vertices} * 3 * sizeof(edge_t));
  const graph::LoadOptions& load = options.load;
  graph::WeightType weight_type = graph::WeightType::none;
  // Symmetrize and self loops are per edge, so each rank does them on its own part (reverses
  // follow their edges' weights); copies of an edge meet on the rank that owns its source in equal
  // vertex ranges, to be deduplicated there.
  const auto transform = [&](bool symmetrize, bool drop_self_loops, bool dedupe) {
    step("transform");
    if (symmetrize) mine = graph::symmetrize(mine);
    if (drop_self_loops) mine = graph::remove_self_loops(mine);
    weight_type = agreed_weight_type(mine, collective);
    if (!dedupe) return;
    step("shuffle");
    const PartitionPlan by_source(Policy::oec, collective.ranks, mine.num_vertices);
    mine = shuffle_edges(std::move(mine), [&](vertex_t s, vertex_t) { return by_source.master_of(s); }, weight_type,
                         options.shuffle_chunk, collective);
    mine = graph::remove_duplicate_edges(mine);
  };
  transform(load.symmetrize, load.drop_self_loops, load.dedupe);
  const edge_t loaded_edges = collective.sum(mine.edges.size());
  if (options.simple_undirected) {
    mine.weights = std::monostate{};
    transform(true, true, true);
  }

  step("degrees");
  const Planned planned = [&] {
    const std::vector<edge_t> out_degree = degrees(mine, false, collective);
    return Planned{options.policy == Policy::iec
                       ? PartitionPlan(options.policy, collective.ranks, degrees(mine, true, collective))
                       : PartitionPlan(options.policy, collective.ranks, out_degree),
                   most_out_edges(out_degree)};
  }();
  const PartitionPlan& plan = planned.plan;
  const vertex_t largest = planned.largest;

  step("shuffle");
  graph::EdgeList kept = shuffle_edges(std::move(mine), [&](vertex_t s, vertex_t d) { return plan.edge_owner(s, d); },
                                       weight_type, options.shuffle_chunk, collective);
  collective.release();
  trim_heap();
  step("local graph");
  return finish(LocalGraph(plan, collective.rank, std::move(kept), options.with_in_edges, options.threads),
                loaded_edges, weight_type, largest, timer, collective);
}

// partition() for a .csr part's rows, untransformed: degrees from the offsets, the shuffle straight
// from the mapping into runs of one source, and one rank builds its rows from the mapping with no
// shuffle (nor a pass over the targets for in-degrees).
DistributedGraph partition_rows(const graph::CsrRows& rows, graph::EdgeList typed,
                                const DistributedLoadOptions& options, const Collective& collective) {
  Steps step(options);
  Timer timer;
  step("transform");
  const graph::WeightType weight_type = agreed_weight_type(typed, collective);
  const vertex_t n = typed.num_vertices;
  const edge_t loaded_edges = collective.sum(rows.edges());

  step("degrees");
  const Planned planned = [&] {
    // Out-degrees are the file's row offsets: the cut is a binary search in them (one rank masters
    // everything whatever the degrees), and the vertex with the most out-edges the best of each
    // part's. No vertex-sized array, no exchange.
    if (options.policy != Policy::iec || collective.ranks == 1) {
      const bool whole = rows.first == 0 && rows.rows() == n;
      const graph::CsrRows all = whole ? graph::CsrRows{} : graph::map_csr_rows(rows, 0, n);
      const Buffer<edge_t>& offsets = whole ? rows.offsets : all.offsets;
      return Planned{PartitionPlan::by_row_offsets(options.policy, collective.ranks,
                                                   std::span<const edge_t>(offsets.data(), offsets.size())),
                     most_out_edges(rows, collective)};
    }
    // iec cuts by in-degree: counted over every rank's targets, in 32 bits while the edges fit.
    Planned planned{loaded_edges <= std::numeric_limits<std::uint32_t>::max()
                        ? plan_by_in_degree<std::uint32_t>(rows, n, collective)
                        : plan_by_in_degree<edge_t>(rows, n, collective),
                    most_out_edges(rows, collective)};
    collective.release();  // the counts' exchange pooled a buffer a peer
    trim_heap();
    return planned;
  }();
  const PartitionPlan& plan = planned.plan;
  const vertex_t largest = planned.largest;
  // The plan is made: what the reader and the plan touched of the file goes (the offsets of every
  // row, the first pages of other parts' checksum blocks); the builders fault in their rows again.
  rows.release_all();

  // No shuffle where a rank's rows are in the file: one rank holds every edge, and under oec a row
  // goes whole to its source's master, so a rank's rows are its masters'.
  if (collective.ranks == 1 || options.policy == Policy::oec) {
    step("local graph");
    const graph::CsrRows mine = collective.ranks == 1 ? rows
                                                      : graph::map_csr_rows(rows, plan.masters_begin(collective.rank),
                                                                            plan.masters_end(collective.rank));
    return finish(LocalGraph(plan, collective.rank, mine, options.with_in_edges, options.threads), loaded_edges,
                  weight_type, largest, timer, collective);
  }
  step("shuffle");
  EdgeRuns kept = shuffle_rows(rows, n, plan, weight_type, options.shuffle_chunk, collective);
  rows.release_all();
  collective.release();
  trim_heap();
  step("local graph");
  return finish(LocalGraph(plan, collective.rank, std::move(kept), options.with_in_edges, options.threads),
                loaded_edges, weight_type, largest, timer, collective);
}

}  // namespace

DistributedGraph build_distributed(graph::EdgeList mine, const DistributedLoadOptions& options,
                                   const Collective& collective) {
  return agreeing_on_failure(collective, "partitioning",
                             [&](const Collective& aware) { return partition(std::move(mine), options, aware); });
}

namespace {

graph::EdgeSlice read_slice(const std::string& graph, const graph::LoadOptions& options, const Collective& collective) {
  const auto part = static_cast<std::uint64_t>(collective.rank), parts = static_cast<std::uint64_t>(collective.ranks);
  graph::LoadOptions load = options;
  // A binary file's id width, when guessed, is the parts' smallest vote.
  int vote = 0;
  agreed(collective, [&] { vote = graph::binary_width_vote(graph, load, part, parts); });
  if (vote != 0) load.read.binary_id_bytes = static_cast<int>(16 - collective.max(std::uint64_t(16 - vote)));

  // A METIS line's vertex is its count of vertex lines before it: the parts count theirs, and an
  // exclusive scan gives each part its first vertex.
  std::optional<std::uint64_t> vertex_lines;
  agreed(collective, [&] { vertex_lines = graph::metis_vertex_lines(graph, load, part, parts); });
  std::optional<std::uint64_t> first_vertex;
  if (vertex_lines) first_vertex = collective.exclusive_sum(*vertex_lines);

  graph::EdgeSlice slice;
  agreed(collective, [&] { slice = graph::read_edge_slice(graph, load, part, parts, first_vertex); });
  const std::vector<Bytes> gathered = collective.all_gather(bytes_of(slice.facts.serialize()));
  agreed(collective, [&] {
    std::vector<graph::SliceFacts> all;
    for (const Bytes& b : gathered) all.push_back(graph::SliceFacts::deserialize(text_of(b)));
    graph::finish_slice(slice, all);
  });
  return slice;
}

// A .csr file loaded with no transforms and at most 2^32 vertices goes by its rows: each rank
// reads its part from the mapping in passes, never expanding it into an EdgeList.
bool by_rows(const std::string& graph, const DistributedLoadOptions& options) {
  const graph::LoadOptions& load = options.load;
  if (load.symmetrize || load.drop_self_loops || load.dedupe || options.simple_undirected || load.memory ||
      graph::is_generator_spec(graph))
    return false;
  try {
    return graph::format_from_path(graph) == graph::Format::csr;
  } catch (const InputError&) {
    return false;  // reading the part says so, on every rank alike
  }
}

// A partitioned .csr: why this run cannot take its parts as written, or empty if it can.
std::string mismatch(const graph::PartitionedCsrHeader& header, const DistributedLoadOptions& options, rank_t ranks) {
  const graph::LoadOptions& load = options.load;
  if (load.symmetrize || load.drop_self_loops || load.dedupe)
    return "this run transforms the graph (--symmetrize, --drop-self-loops or --dedupe)";
  if (options.simple_undirected) return "this algorithm needs it simple and undirected";
  if (header.parts != static_cast<std::uint64_t>(ranks) || header.policy != to_string(options.policy))
    return fmt::format("this run has {} ranks, policy {}", ranks, to_string(options.policy));
  return "";
}

// Each rank's part of a partitioned .csr written for this run, as written. Collective.
DistributedGraph load_parts(const std::string& graph, const graph::PartitionedCsrHeader& header,
                            const DistributedLoadOptions& options, const Collective& collective) {
  return agreeing_on_failure(collective, "loading", [&](const Collective& aware) {
    Steps step(options);
    Timer timer;
    graph::CsrPart part = graph::read_partitioned_part(graph, static_cast<std::uint32_t>(aware.rank),
                                                       options.load.read.verify_checksum, options.with_in_edges);
    const double load_seconds = aware.max(timer.lap());
    step("local graph");
    const PartitionPlan plan(options.policy, header.bounds);
    DistributedGraph out = finish(LocalGraph(plan, aware.rank, std::move(part), options.with_in_edges, options.threads),
                                  header.num_edges, header.weight_type, header.largest_out_degree, timer, aware, false);
    out.load_seconds = load_seconds;
    out.note = fmt::format("each rank took its part of {} as written (partitioned for {} ranks, policy {})", graph,
                           header.parts, header.policy);
    return out;
  });
}

std::optional<graph::PartitionedCsrHeader> partitioned_header(const std::string& graph,
                                                              const DistributedLoadOptions& options,
                                                              const Collective& collective) {
  if (options.load.memory || graph::is_generator_spec(graph)) return std::nullopt;
  try {
    if (graph::format_from_path(graph) != graph::Format::csr) return std::nullopt;
  } catch (const InputError&) {
    return std::nullopt;  // reading the part says so, on every rank alike
  }
  if (!graph::is_partitioned_csr(graph)) return std::nullopt;
  graph::PartitionedCsrHeader header;
  agreed(collective, [&] { header = graph::read_partitioned_header(graph); });
  return header;
}

}  // namespace

graph::EdgeList read_part(const std::string& graph, const graph::LoadOptions& options, const Collective& collective) {
  graph::LoadOptions load = options;
  load.read.csr_rows = false;
  return std::move(read_slice(graph, load, collective).edges);
}

graph::EdgeSlice read_part_rows(const std::string& graph, const graph::LoadOptions& options,
                                const Collective& collective) {
  graph::LoadOptions load = options;
  load.read.csr_rows = true;
  return read_slice(graph, load, collective);
}

DistributedGraph load_distributed(const std::string& graph, const DistributedLoadOptions& options,
                                  const Collective& collective) {
  Timer timer;
  std::string note;
  if (const auto header = partitioned_header(graph, options, collective)) {
    const std::string why = mismatch(*header, options, collective.ranks);
    if (why.empty()) return load_parts(graph, *header, options, collective);
    note = fmt::format(
        "{} is partitioned for {} ranks, policy {}, and {}: its parts were read as edges and "
        "partitioned again",
        graph, header->parts, header->policy, why);
  } else if (by_rows(graph, options)) {
    graph::LoadOptions load = options.load;
    load.read.csr_rows = true;
    graph::EdgeSlice slice = read_slice(graph, load, collective);
    if (slice.rows && slice.edges.num_vertices <= (vertex_t{1} << 32)) {
      const double load_seconds = collective.max(timer.lap());
      DistributedGraph out = agreeing_on_failure(collective, "partitioning", [&](const Collective& aware) {
        return partition_rows(*slice.rows, std::move(slice.edges), options, aware);
      });
      out.load_seconds = load_seconds;
      return out;
    }
    graph::LoadOptions expanded = options.load;
    expanded.read.csr_rows = false;
    DistributedGraph out = build_distributed(read_part(graph, expanded, collective), options, collective);
    out.load_seconds = collective.max(timer.lap()) - out.partition_seconds;
    return out;
  }
  graph::EdgeList mine = read_part(graph, options.load, collective);
  const double load_seconds = collective.max(timer.lap());
  DistributedGraph out = build_distributed(std::move(mine), options, collective);
  out.load_seconds = load_seconds;
  out.note = std::move(note);
  return out;
}

}  // namespace courier::dist
