#pragma once
// The readers and writers of each format, behind io.cpp's dispatch by extension. Readers get the
// mapped file and return what is on disk (io.cpp adds reverse edges for --symmetrize); writers get
// input that io.cpp has already checked (ids < num_vertices, one weight per edge).
#include <string>

#include "courier/core/mapped_file.hpp"
#include "courier/graph/csr.hpp"
#include "courier/graph/edge_list.hpp"
#include "courier/graph/io.hpp"
#include "courier/graph/slice.hpp"

namespace courier::graph::io {

EdgeList read_text(const MappedFile& file, const ReadOptions& options);
// The lines that start in bytes [begin, end) (slice.hpp says what a part is).
EdgeSlice read_text_range(const MappedFile& file, const ReadOptions& options, std::size_t begin, std::size_t end);
void write_text(const std::string& path, const EdgeList& edges, const WriteOptions& options);

EdgeList read_matrix_market(const MappedFile& file, const ReadOptions& options);
EdgeSlice read_matrix_market_part(const MappedFile& file, const ReadOptions& options, std::uint64_t part,
                                  std::uint64_t parts);
void write_matrix_market(const std::string& path, const EdgeList& edges);

EdgeList read_binary(const MappedFile& file, const ReadOptions& options);
int binary_width_vote(const MappedFile& file, const ReadOptions& options, std::uint64_t part, std::uint64_t parts);
// options.binary_id_bytes must be 4 or 8 (agreed through binary_width_vote).
EdgeSlice read_binary_part(const MappedFile& file, const ReadOptions& options, std::uint64_t part, std::uint64_t parts);
void write_binary(const std::string& path, const EdgeList& edges, const WriteOptions& options);

EdgeList read_dimacs(const MappedFile& file);
EdgeSlice read_dimacs_part(const MappedFile& file, std::uint64_t part, std::uint64_t parts);
void write_dimacs(const std::string& path, const EdgeList& edges);

EdgeList read_metis(const MappedFile& file);
// The vertex lines (every line but comments) of part `part` of the lines after the header.
std::uint64_t metis_vertex_lines(const MappedFile& file, std::uint64_t part, std::uint64_t parts);
// That part's lines, its first vertex line being vertex `first_vertex` (the vertex lines before it).
EdgeSlice read_metis_part(const MappedFile& file, std::uint64_t part, std::uint64_t parts, std::uint64_t first_vertex);
void write_metis(const std::string& path, const EdgeList& edges);

Csr read_csr_file(const std::string& path, const ReadOptions& options);
// Rows [first, last) with about edges * part / parts edges before `first`; the file is mapped and
// only the offsets and this part's rows are read (no checksum: that would read every byte).
EdgeSlice read_csr_part(const std::string& path, const ReadOptions& options, std::uint64_t part, std::uint64_t parts);
void write_csr_file(const std::string& path, const Csr& csr);

// Galois binary .gr: whether a file starting with these bytes is one (version 1 or 2 at byte 0).
bool is_galois(std::string_view first_bytes);
EdgeList read_galois(const MappedFile& file, const ReadOptions& options);
// Vertices [first, last) with about edges * part / parts edges before `first`, as .csr parts.
EdgeSlice read_galois_part(const MappedFile& file, const ReadOptions& options, std::uint64_t part, std::uint64_t parts);
void write_galois(const std::string& path, const EdgeList& edges);

// WebGraph BVGraph: `file` is BASENAME.graph; BASENAME.properties (and .offsets, if there) are read
// beside it. Part p is vertices [n * p / parts, n * (p + 1) / parts).
EdgeList read_webgraph(const MappedFile& file);
EdgeSlice read_webgraph_part(const MappedFile& file, std::uint64_t part, std::uint64_t parts);

}  // namespace courier::graph::io
