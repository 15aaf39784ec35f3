#pragma once
// Reading and writing graph files. The format is chosen by the file's extension:
//   .el .txt .wel .edges .tsv  text edge list (SNAP style)  .mtx   Matrix Market coordinate
//   .bel .bin                  binary edge list (4/8-byte)  .csr   Courier's binary CSR (mmap)
//   .gr                        DIMACS shortest path, or Galois binary
//   .graph                     METIS adjacency, or WebGraph BVGraph (BASENAME.properties beside it)
// Two extensions are shared, so a file being read is told apart by its content (format_of_file):
// a .gr file that starts with the little-endian 64-bit number 1 or 2 is Galois binary, any other is
// DIMACS text; a .graph file with BASENAME.properties beside it is WebGraph, any other is METIS.
// Writing, the extension decides (.gr is DIMACS) unless WriteOptions::format says otherwise.
// Malformed input throws courier::InputError "FILE:LINE: what is wrong" (line 0 / a byte offset in
// the message for binary files); a missing file is "FILE: cannot open: <reason>". Writers write to
// a temporary name and rename at the end, so a failed write leaves nothing behind.
//
// Format notes:
//   text    "src dst [weight]" per line; '#' and '%' lines are comments; ids >= ReadOptions::base;
//           integer weights are uint32, weights with a '.' or exponent are float (the whole file
//           agrees); num_vertices = largest id + 1 - base. Float weights are written with a '.'.
//   .mtx    pattern/integer/real, general/symmetric (symmetric: off-diagonal entries give both
//           directions); num_vertices = max(rows, cols). Written as general.
//   .bel    little-endian id pairs, each followed by a 4-byte weight if ReadOptions::binary_weight;
//           num_vertices = largest id + 1.
//   .gr     "p sp n m", "a u v w"; uint32 weights. Unweighted graphs are written with weight 1;
//           float weights cannot be written (DIMACS weights are integers).
//   .graph  METIS: m counts undirected edges, each listed from both ends. Only symmetric graphs
//           without self-loops can be written (read with --symmetrize, drop self-loops first).
//   .csr    header (magic, version, weight type, counts, checksum) + offsets, targets, weights as
//           64-bit aligned little-endian arrays, mapped read-only by read_csr (no copy).
//   Galois  .gr binary (Galois / Gluon): version 1 (uint32 targets) or 2 (uint64 targets), an
//           optional 4-byte weight per edge, read as uint32 (float with ReadOptions::binary_weight
//           = f32). Written as version 1 when ids fit 32 bits, weights as their 4 bytes.
//   BVGraph WebGraph's compressed .graph + .properties (+ .offsets, which lets parts of the file
//           be read without decoding what comes before them). Read only.
#include <optional>
#include <string>
#include <string_view>

#include "courier/graph/csr.hpp"
#include "courier/graph/edge_list.hpp"
#include "courier/graph/generate.hpp"

namespace courier::graph {

enum class Format { text, matrix_market, binary, dimacs, metis, csr, galois, webgraph };

// By the extension alone (for files to write): .gr is dimacs, .graph metis. Throws InputError
// naming the known extensions when the extension is not one of them.
Format format_from_path(std::string_view path);
// The format of a file to read: by the extension, and by the content where extensions are shared
// (.gr: Galois or DIMACS; .graph: WebGraph or METIS). A .gr file that cannot be opened is dimacs
// (reading it says why).
Format format_of_file(const std::string& path);
const char* to_string(Format format);  // "galois"
const char* describe(Format format);   // "Galois binary (.gr)", for courier info
// The Format whose to_string is `name`, or nullopt.
std::optional<Format> format_named(std::string_view name);

struct ReadOptions {
  int base = 0;                 // text edge lists: the smallest id (0 or 1); other formats fix it
  // Text edge lists: which column is the weight. nullopt: the third, if there is one (a SNAP
  // temporal file "src dst timestamp" is then weighted by its timestamps, as uint32), and a fourth
  // column is an error; 0: none, every column after the second is ignored (the temporal file read
  // unweighted); k >= 3: column k, every line has at least k columns and the others are ignored.
  std::optional<int> weight_column = std::nullopt;
  bool symmetrize = false;      // add the reverse of every non-loop edge (any format)
  // Text and Matrix Market: refuse, at the line that says so, ids so large that one 8-byte word
  // per vertex would not fit this machine (core/memory.hpp), naming --compact-ids. Off for
  // `courier convert --compact-ids`, which renumbers them before anything per vertex is built.
  bool check_id_range = true;
  // .bel/.bin: 4 or 8. 0 guesses: the id width whose record size divides the file size; if both
  // do, 8 when every id read as 8 bytes fits in 32 bits (a file of 4-byte ids read that way puts
  // its targets in the high halves, so this fails unless all of them are 0), else 4. A size that
  // neither divides is an error that names --binary-id-bytes.
  int binary_id_bytes = 0;
  WeightType binary_weight = WeightType::none;  // .bel/.bin: a weight after each pair; Galois: f32 reads
                                                // 4-byte edge data as float
  // .csr: check the arrays against the header's checksum. Without it only the offsets are checked
  // (monotone, from 0 to the edge count): the targets are trusted to be < num_vertices.
  bool verify_checksum = true;
  // .csr parts (graph/slice.hpp): borrow the part's rows from the mapping (EdgeSlice::rows), its
  // pages released once checked, instead of expanding them into EdgeSlice::edges.
  bool csr_rows = false;
  unsigned threads = 0;         // text edge lists are parsed in parallel; 0 = all cores
};

struct WriteOptions {
  int base = 0;  // text edge lists: the id written for vertex 0
  int binary_id_bytes = 8;  // .bel/.bin: 4 or 8 (4 fails on ids >= 2^32)
  std::optional<Format> format = std::nullopt;  // instead of the extension's (Format::galois for a Galois .gr)
  bool symmetric = false;  // the edges are known symmetric (--symmetrize): a .csr records it (Csr::symmetric)
};

// Any format, as an edge list (a .csr file is expanded).
EdgeList read_edge_list(const std::string& path, const ReadOptions& options = {});
// Any format, as a Csr; a .csr file is mapped, not parsed.
Csr read_csr(const std::string& path, const ReadOptions& options = {});

void write_edge_list(const std::string& path, const EdgeList& edges, const WriteOptions& options = {});
void write_csr(const std::string& path, const Csr& csr, const WriteOptions& options = {});

// The graph `options` generates, written as a .csr (the same file write_edge_list writes of
// generate(options), a path or grid marked known symmetric) without its edge list in memory: the
// generator runs once to count each source's edges, then once per window of sources whose rows fit
// `buffer_bytes`. Memory: 8 bytes a vertex besides the window. For graphs too large to hold
// (kron:26: 1.07 G edges, 17 GB as a list). `path` must be a regular file.
void write_generated_csr(const std::string& path, const GeneratorOptions& options,
                         std::uint64_t buffer_bytes = std::uint64_t{1} << 31);

}  // namespace courier::graph
