#pragma once
// Reading and writing graph files. The format is chosen by the file's extension:
//   .el .txt .wel .edges  text edge list (SNAP style)      .mtx    Matrix Market coordinate
//   .bel .bin             binary edge list (uint32/uint64)  .gr     DIMACS shortest path
//   .graph                METIS adjacency                   .csr    Courier's binary CSR (mmap)
// Malformed input throws courier::InputError "FILE:LINE: what is wrong"; writers write to a
// temporary name and rename at the end, so a failed write leaves nothing behind.
#include <string>
#include <string_view>

#include "courier/graph/csr.hpp"
#include "courier/graph/edge_list.hpp"

namespace courier::graph {

enum class Format { text, matrix_market, binary, dimacs, metis, csr };

// Throws InputError naming the known extensions when the extension is not one of them.
Format format_from_path(std::string_view path);
const char* to_string(Format format);

struct ReadOptions {
  int base = 0;                 // text edge lists: the smallest id (0 or 1); other formats fix it
  bool symmetrize = false;      // add the reverse of every edge
  int binary_id_bytes = 0;      // .bel/.bin: 4 or 8; 0 guesses from the file size
  WeightType binary_weight = WeightType::none;  // .bel/.bin: a weight after each pair
};

struct WriteOptions {
  int base = 0;  // text edge lists: the id written for vertex 0
  int binary_id_bytes = 8;
};

// Any format, as an edge list (a .csr file is expanded).
EdgeList read_edge_list(const std::string& path, const ReadOptions& options = {});
// Any format, as a Csr; a .csr file is mapped, not parsed.
Csr read_csr(const std::string& path, const ReadOptions& options = {});

void write_edge_list(const std::string& path, const EdgeList& edges, const WriteOptions& options = {});
void write_csr(const std::string& path, const Csr& csr, const WriteOptions& options = {});

}  // namespace courier::graph
