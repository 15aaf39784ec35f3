#pragma once
// Partitioned .csr files (`courier convert IN -o OUT.csr --partition N --policy P`): one file that
// holds every rank's partition for N ranks and policy P, as the vertex engine's LocalGraph keeps
// it, so a run at N ranks with policy P reads its own part and partitions nothing. Any other reader
// (another rank count or policy, the other engines, `courier info`, convert) reads the parts back
// as edges in global ids: the file is still the whole graph. The graph layer knows the layout only;
// dist/partitioned_file.hpp makes the parts and turns a part into a LocalGraph.
//
// Layout, little-endian, every array starting on an 8-byte boundary (padding is zero):
//   header   64 bytes: magic "COURCSR\n" (as a plain .csr), u32 version = 2 (1 is the plain
//            .csr), u32 weight type, u64 vertices, u64 edges, u64 checksum, u32 parts N,
//            char[4] policy ("oec", "iec", "cvc", "hash", zero-padded), u64 the vertex with the
//            most out-edges (smallest on ties: a run's default source), u64 reserved (0)
//   bounds   N + 1 u64: part p masters global ids [bounds[p], bounds[p+1])
//   table    N entries of 64 bytes: u64 byte offset of the part, u64 its length, u64 mirrors,
//            u64 edges, u64 requested (entries), u64 checksum, u64 offset width in bytes (8),
//            u64 checksum of the in-edges
//   parts    part p, at its offset, with P = masters + mirrors proxies (local ids: masters
//            0..masters-1 are bounds[p].., mirrors follow in the order of their global ids):
//              mirror ids      mirrors u64: global ids, ascending, none mastered by p
//              request bounds  N + 1 u64: peer q mirrors the masters requested[b[q] .. b[q+1])
//              requested       u32 local ids of masters, in the order of q's mirror ids
//              offsets         P + 1 u64: row v is edges [offsets[v], offsets[v+1])
//              targets         edges u32: local ids, each row ascending (by weight on ties)
//              weights         edges u32 or float, when the graph has weights
//              in offsets      P + 1 u64: the in-edges (the same edges by target), row v is
//              in sources      edges u32 [in offsets[v], in offsets[v+1]): local ids, ascending
//              in weights      edges u32 or float, when the graph has weights
// The header's checksum covers the header (checksum field 0), bounds and table; each part's two
// cover its arrays up to the weights, and its in-edges (each array hashed in 16 MiB blocks, as the
// plain .csr's), so a rank checks its own part, and its in-edges only when it reads them (a run
// whose algorithm needs no in-edges never touches their pages).
#include <cstdint>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "courier/core/uninit_vector.hpp"
#include "courier/graph/edge_list.hpp"
#include "courier/graph/types.hpp"

namespace courier::graph {

struct PartitionedCsrHeader {
  std::uint32_t parts = 1;
  std::string policy;  // the vertex engine's policy name
  vertex_t num_vertices = 0;
  edge_t num_edges = 0;
  WeightType weight_type = WeightType::none;
  vertex_t largest_out_degree = 0;
  std::vector<vertex_t> bounds;  // parts + 1
};

// One part as the writer hands it over (views of a LocalGraph's arrays).
struct CsrPartView {
  std::span<const vertex_t> mirror_ids;
  std::span<const std::uint64_t> request_bounds;  // parts + 1
  std::span<const std::uint32_t> requested;
  std::span<const edge_t> offsets;  // proxies + 1
  std::span<const std::uint32_t> targets;
  std::variant<std::monostate, std::span<const std::uint32_t>, std::span<const float>> weights;
  std::span<const edge_t> in_offsets;  // proxies + 1
  std::span<const std::uint32_t> in_sources;
  std::variant<std::monostate, std::span<const std::uint32_t>, std::span<const float>> in_weights;
};

// One part as read: its arrays copied out of the mapping (each window's pages released once
// copied), checksummed and checked (ids in range, offsets monotone), in the layout above.
struct CsrPart {
  vertex_t first_master = 0;
  vertex_t masters = 0;
  std::vector<vertex_t> mirror_ids;
  std::vector<std::uint64_t> request_bounds;
  std::vector<std::uint32_t> requested;
  std::vector<edge_t> offsets;
  UninitVector<std::uint32_t> targets;  // copied out of the file: resize leaves it unwritten
  EdgeWeights weights;
  std::vector<edge_t> in_offsets;  // empty unless asked for
  UninitVector<std::uint32_t> in_sources;
  EdgeWeights in_weights;
};

// Whether PATH starts as a partitioned .csr (magic and version 2); false for anything else.
bool is_partitioned_csr(const std::string& path);

// The header, bounds and table checked against each other, the file's size and the checksum.
// Throws InputError "PATH: ..." naming the byte where something is wrong.
PartitionedCsrHeader read_partitioned_header(const std::string& path);

// Part `part` of the file, checked as CsrPart says (and against its checksum, with verify_checksum);
// its in-edges too with in_edges.
CsrPart read_partitioned_part(const std::string& path, std::uint32_t part, bool verify_checksum, bool in_edges);

// Parts [first, last) as edges in global ids, in part order (each part's rows, in its local order).
EdgeList read_partitioned_edges(const std::string& path, std::uint32_t first, std::uint32_t last, bool verify_checksum);

// Writes the file under a temporary name and renames it once complete (core/atomic_file.hpp).
// `parts` are header.parts views, checked for sizes only: the caller makes them consistent.
void write_partitioned_csr(const std::string& path, const PartitionedCsrHeader& header,
                           std::span<const CsrPartView> parts);

}  // namespace courier::graph
