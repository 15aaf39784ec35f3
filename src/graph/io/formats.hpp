#pragma once
// The readers and writers of each format, behind io.cpp's dispatch by extension. Readers get the
// mapped file and return what is on disk (io.cpp adds reverse edges for --symmetrize); writers get
// input that io.cpp has already checked (ids < num_vertices, one weight per edge).
#include <string>

#include "courier/core/mapped_file.hpp"
#include "courier/graph/csr.hpp"
#include "courier/graph/edge_list.hpp"
#include "courier/graph/io.hpp"

namespace courier::graph::io {

EdgeList read_text(const MappedFile& file, const ReadOptions& options);
void write_text(const std::string& path, const EdgeList& edges, const WriteOptions& options);

EdgeList read_matrix_market(const MappedFile& file);
void write_matrix_market(const std::string& path, const EdgeList& edges);

EdgeList read_binary(const MappedFile& file, const ReadOptions& options);
void write_binary(const std::string& path, const EdgeList& edges, const WriteOptions& options);

EdgeList read_dimacs(const MappedFile& file);
void write_dimacs(const std::string& path, const EdgeList& edges);

EdgeList read_metis(const MappedFile& file);
void write_metis(const std::string& path, const EdgeList& edges);

Csr read_csr_file(const std::string& path, const ReadOptions& options);
void write_csr_file(const std::string& path, const Csr& csr);

}  // namespace courier::graph::io
