#pragma once
// RunResult: what an algorithm run hands back to `courier run`, whatever engine ran it: one value
// per vertex, a short summary for people, and the same summary as JSON.
#include <cstdint>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "courier/graph/types.hpp"

namespace courier::cli {

struct RunOptions {
  graph::vertex_t source = graph::kNoVertex;  // bfs, sssp: kNoVertex = the largest out-degree
  double damping = 0.85;                      // pagerank
  double tolerance = 1e-9;                    // pagerank: L1 change that stops it
  unsigned max_iterations = 1000;             // pagerank
};

using VertexValues = std::variant<std::vector<std::uint64_t>, std::vector<double>>;

struct RunResult {
  VertexValues values;                                      // kUnreached prints as "inf"
  std::vector<std::pair<std::string, std::string>> lines;   // "Key: value" summary lines
  nlohmann::json summary = nlohmann::json::object();
  std::string verifier;                                     // how --verify checked it
  std::string mismatch;                                     // empty when verification passed
};

// "vertex value" lines, one per vertex, written atomically.
void write_vertex_values(const std::string& path, const VertexValues& values);

}  // namespace courier::cli
