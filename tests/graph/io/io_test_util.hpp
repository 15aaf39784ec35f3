#pragma once
// Helpers for the graph io tests: a fresh temporary folder per test case, writing raw files,
// comparing graphs as edge multisets, and checking that an InputError names file and line.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "courier/core/error.hpp"
#include "courier/graph/edge_list.hpp"

namespace courier::graph::test {

// COURIER_TEST_TMPDIR/io/<suite>.<case>, emptied at the start of the test case.
inline std::filesystem::path test_dir() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  const std::filesystem::path dir =
      std::filesystem::path(COURIER_TEST_TMPDIR) / "io" / (std::string(info->test_suite_name()) + "." + info->name());
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

inline std::string write_file(const std::filesystem::path& path, std::string_view bytes) {
  std::ofstream(path, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  return path.string();
}

inline std::vector<std::string> files_in(const std::filesystem::path& dir) {
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

// Edges with their weights (as double; -1 when unweighted), sorted: equal multisets compare equal.
using WeightedEdge = std::tuple<vertex_t, vertex_t, double>;
inline std::vector<WeightedEdge> multiset(const EdgeList& list) {
  std::vector<WeightedEdge> result;
  for (std::size_t i = 0; i < list.edges.size(); ++i) {
    double w = -1;
    if (const auto* u = std::get_if<std::vector<std::uint32_t>>(&list.weights)) w = (*u)[i];
    if (const auto* f = std::get_if<std::vector<float>>(&list.weights)) w = (*f)[i];
    result.emplace_back(list.edges[i].src, list.edges[i].dst, w);
  }
  std::sort(result.begin(), result.end());
  return result;
}

// A random graph whose largest vertex has an edge (so every format preserves num_vertices).
inline EdgeList random_graph(vertex_t n, std::size_t m, WeightType weights, std::uint64_t seed = 7) {
  std::mt19937_64 rng(seed);
  EdgeList list;
  list.num_vertices = n;
  for (std::size_t i = 0; i < m; ++i) list.edges.push_back({rng() % n, rng() % n});
  list.edges.push_back({n - 1, 0});
  if (weights == WeightType::u32) {
    std::vector<std::uint32_t> w;
    for (std::size_t i = 0; i <= m; ++i) w.push_back(i % 5 == 0 ? 4294967295u : static_cast<std::uint32_t>(rng() % 1000));
    list.weights = std::move(w);
  } else if (weights == WeightType::f32) {
    std::vector<float> w;
    const float special[] = {3.0f, -0.5f, 1e-7f, 1e20f, 0.1f, 0.0f};
    for (std::size_t i = 0; i <= m; ++i)
      w.push_back(i < 6 ? special[i] : static_cast<float>(rng() % 100000) / 7.0f);
    list.weights = std::move(w);
  }
  return list;
}

// An undirected version: both directions of every non-loop edge, same weight both ways.
inline EdgeList symmetric_graph(vertex_t n, std::size_t m, WeightType weights, std::uint64_t seed = 11) {
  const EdgeList half = random_graph(n, m, weights, seed);
  EdgeList list;
  list.num_vertices = n;
  std::vector<std::uint32_t> w;
  for (std::size_t i = 0; i < half.edges.size(); ++i) {
    const Edge e = half.edges[i];
    if (e.src == e.dst) continue;
    list.edges.push_back(e);
    list.edges.push_back({e.dst, e.src});
    if (weights == WeightType::u32) w.insert(w.end(), 2, std::get<std::vector<std::uint32_t>>(half.weights)[i]);
  }
  if (weights == WeightType::u32) list.weights = std::move(w);
  return list;
}

// Runs f, expecting an InputError whose message contains every one of `parts`.
template <class F>
void expect_input_error(F&& f, std::initializer_list<std::string> parts) {
  try {
    f();
    ADD_FAILURE() << "expected an InputError, nothing was thrown";
  } catch (const InputError& error) {
    const std::string message = error.what();
    for (const std::string& part : parts)
      EXPECT_NE(message.find(part), std::string::npos) << "'" << part << "' is not in: " << message;
  } catch (const std::exception& error) {
    ADD_FAILURE() << "expected an InputError, got: " << error.what();
  }
}

}  // namespace courier::graph::test
