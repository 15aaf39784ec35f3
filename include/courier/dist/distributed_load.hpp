#pragma once
// Distributed loading (paper 000 II, IV; Gemini's loader): every rank reads its own part of the
// input (graph/slice.hpp), the ranks agree on what the parts decide together, and every edge is
// sent to the rank the partition plan gives it. No rank ever holds the whole edge list: a rank
// holds its part, then its partition, plus vertex-sized arrays (degrees) as Gemini does.
//
//   LocalGraph comes out with its mirrors connected and equal to what partition_in_memory makes
//   of the whole graph (load_graph's edges with the same transforms) for the same policy.
#include <functional>
#include <string>
#include <string_view>

#include "courier/core/error.hpp"
#include "courier/dist/collective.hpp"
#include "courier/dist/local_graph.hpp"
#include "courier/graph/load.hpp"
#include "courier/graph/slice.hpp"

namespace courier::dist {

struct DistributedLoadOptions {
  Policy policy = Policy::oec;
  graph::LoadOptions load;         // the input's options and the transforms asked for
  bool simple_undirected = false;  // tc, kcore: both directions, no self loops, no duplicates, no weights
  bool with_in_edges = false;
  unsigned threads = 0;                    // building a rank's partition, where the work divides (0: every core)
  edge_t shuffle_chunk = edge_t{1} << 20;  // edges a rank sends per round of the shuffle
  // Called on this rank before each step of the partitioning ("transform", "degrees", "shuffle",
  // "local graph") with the step's name; what it throws is this rank's failure alone. For tests
  // and the CLI's fault injection: a failure on one rank must stop every rank alike.
  std::function<void(std::string_view step)> before_step;
};

struct DistributedGraph {
  LocalGraph graph;
  edge_t edges = 0;         // in all ranks' partitions
  edge_t loaded_edges = 0;  // of the graph as loaded with load's transforms, before simple_undirected's
  graph::WeightType weight_type = graph::WeightType::none;
  vertex_t largest_out_degree = 0;  // the vertex with the most out-edges, the smallest on ties
  PartitionQuality quality;
  GraphBytes bytes;              // every rank's partition's, summed
  double load_seconds = 0;       // reading the parts (max over ranks)
  double partition_seconds = 0;  // transforms, degrees, plan, shuffle, LocalGraph (max over ranks)
  // How a partitioned .csr file was used: its parts taken as written, or why it was partitioned
  // again (another rank count or policy, transforms); empty for other inputs. For --verbose.
  std::string note;
};

// Thrown on every rank, with the same message, when any rank could not read its part or failed
// while partitioning (agreed_failure.hpp).
class LoadError : public InputError {
 public:
  using InputError::InputError;
};

// This rank's part of GRAPH (graph/slice.hpp), with the facts only the parts together decide
// agreed (a guessed binary id width, the vertex count, the weight type, header checks). No
// transforms applied. Any rank's failure throws LoadError, the same message, on every rank.
// Collective: what load_distributed and the mailbox engine read.
graph::EdgeList read_part(const std::string& graph, const graph::LoadOptions& load, const Collective& collective);
// The same, but a plain .csr file's part comes as its rows borrowed from the file's mapping
// (graph/csr_rows.hpp: `rows`, with `edges` holding none but the agreed vertex count and weight
// type), never expanded into an EdgeList. Any other input comes as read_part's edges. Collective.
graph::EdgeSlice read_part_rows(const std::string& graph, const graph::LoadOptions& load, const Collective& collective);

// GRAPH (a file or a generator spec) read in parts and partitioned. Collective. A partitioned .csr
// file written for this run's rank count and policy, read without transforms, is not partitioned:
// each rank takes its own part as written; any other run reads its parts back as edges and
// partitions them as usual (a file written for one run stays usable by every other).
DistributedGraph load_distributed(const std::string& graph, const DistributedLoadOptions& options,
                                  const Collective& collective);

// The same from this rank's part of the edges, already read (num_vertices the same on every rank,
// weights of the same type): the transforms, degrees, plan, shuffle and LocalGraph. Collective: a
// failure on any rank (an exception, out of memory) throws LoadError, the same on every rank.
DistributedGraph build_distributed(graph::EdgeList mine, const DistributedLoadOptions& options,
                                   const Collective& collective);

}  // namespace courier::dist
