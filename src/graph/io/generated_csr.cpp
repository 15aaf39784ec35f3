// A generated graph written as a .csr without its edge list in memory (graph/io.hpp:
// write_generated_csr). Edge i of a generator is a pure function of (seed, i), so the edges can be
// drawn again as often as needed: once to count each source's edges, then once per window of
// sources whose rows fit the buffer, each window's rows filled in the order drawn, sorted and
// appended (weights written at their place). The checksum is computed over the finished file, which
// is mapped back, and the header goes in last. Memory: the offsets (8 bytes a vertex), one window
// and one slice of edges.
#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <numeric>
#include <variant>
#include <vector>

#include "courier/core/atomic_file.hpp"
#include "courier/core/error.hpp"
#include "courier/core/mapped_file.hpp"
#include "courier/core/memory.hpp"
#include "courier/core/parallel.hpp"
#include "courier/graph/generate.hpp"
#include "courier/graph/io.hpp"
#include "csr_layout.hpp"

namespace courier::graph {

namespace {

constexpr edge_t kSlice = edge_t{1} << 22;  // edges drawn at a time

// Calls f(edges, first) for every slice of the generator's edges, in order.
template <class F>
void each_slice(const GeneratorOptions& options, F&& f) {
  const edge_t m = generated_edge_count(options);
  for (edge_t first = 0; first < m; first += kSlice)
    f(generate_range(options, first, std::min(m, first + kSlice)), first);
}

// Sorts rows [from, to) of a window by target, stably (the order write_edge_list's CSR gives ties),
// carrying the weights along.
template <class W>
void sort_window_rows(const std::vector<edge_t>& offsets, vertex_t from, vertex_t to, edge_t base, vertex_t* targets,
                      W* weights) {
  std::vector<std::pair<vertex_t, W>> pairs;
  for (vertex_t v = from; v < to; ++v) {
    vertex_t* t = targets + (offsets[v] - base);
    const std::size_t d = offsets[v + 1] - offsets[v];
    if (d < 2 || std::is_sorted(t, t + d)) continue;
    if (!weights) {
      std::sort(t, t + d);  // equal targets are alike
      continue;
    }
    W* w = weights + (offsets[v] - base);
    pairs.resize(d);
    for (std::size_t i = 0; i < d; ++i) pairs[i] = {t[i], w[i]};
    std::stable_sort(pairs.begin(), pairs.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    for (std::size_t i = 0; i < d; ++i) t[i] = pairs[i].first, w[i] = pairs[i].second;
  }
}

}  // namespace

void write_generated_csr(const std::string& path, const GeneratorOptions& options, std::uint64_t buffer_bytes) {
  const vertex_t n = generated_vertex_count(options);
  const edge_t m = generated_edge_count(options);
  const WeightType type = options.weights ? WeightType::u32 : WeightType::none;
  const std::uint64_t edge_bytes = options.weights ? 12 : 8;
  const edge_t window_edges = std::max<edge_t>(1, buffer_bytes / edge_bytes);
  // The offsets and a window's cursors (8 bytes a vertex each at most), a window, a slice.
  check_memory(fmt::format("writing the .csr of {}", generator_spec(options)),
               2 * (n + 1) * sizeof(edge_t) + std::min(m, window_edges) * edge_bytes + kSlice * (sizeof(Edge) + 4),
               "take a smaller graph, or run from the spec itself (--graph kron:S), each rank generating its share");

  AtomicFile file(path);
  if (file.temporary_path().empty())
    throw InputError(
        fmt::format("{}: a generated .csr is written to a regular file (its checksum is computed over "
                    "what was written): name one",
                    path));
  // Each source's edges, then the offsets.
  std::vector<edge_t> offsets(static_cast<std::size_t>(n) + 1, 0);
  Progress counting("counting " + generator_spec(options), m, 64u << 20, "edges");
  each_slice(options, [&](const EdgeList& slice, edge_t) {
    for (const Edge& e : slice.edges) ++offsets[e.src + 1];
    counting.add(slice.edges.size());
  });
  std::partial_sum(offsets.begin(), offsets.end(), offsets.begin());

  io::Header header{};
  std::memcpy(header.magic, io::kMagic, sizeof io::kMagic);
  header.version = io::kVersion;
  header.weight_type = static_cast<std::uint32_t>(type);
  header.num_vertices = n;
  header.num_edges = m;
  // A lattice gives every edge in both directions (generate.hpp): known symmetric.
  const bool lattice = options.kind == Generator::path || options.kind == Generator::grid;
  header.flags = lattice ? io::kSymmetric : 0;

  file.write(&header, sizeof header);  // rewritten with its checksum at the end
  file.write(offsets.data(), offsets.size() * sizeof(edge_t));
  // Targets window by window, appended; the weights, which follow all the targets, written at their
  // place in the same temporary through a second descriptor (the gap between fills as targets come).
  const std::uint64_t weights_at = io::weights_at(n, m);
  int weights_fd = -1;
  if (options.weights) {
    weights_fd = ::open(file.temporary_path().c_str(), O_WRONLY | O_CLOEXEC);
    if (weights_fd < 0) throw Error(fmt::format("{}: cannot reopen: {}", file.temporary_path(), std::strerror(errno)));
  }
  struct Closer {
    int fd;
    ~Closer() {
      if (fd >= 0) ::close(fd);
    }
  } weights_closer{weights_fd};
  const auto put_weights = [&](const void* data, std::uint64_t bytes, std::uint64_t at) {
    for (std::uint64_t done = 0; done < bytes;) {
      const ssize_t put =
          ::pwrite(weights_fd, static_cast<const char*>(data) + done, bytes - done, static_cast<off_t>(at + done));
      if (put < 0 && errno == EINTR) continue;
      if (put <= 0) throw Error(fmt::format("{}: cannot write: {}", file.temporary_path(), std::strerror(errno)));
      done += static_cast<std::uint64_t>(put);
    }
  };

  Progress writing("writing " + path, m, 64u << 20, "edges");
  std::vector<vertex_t> targets;
  std::vector<std::uint32_t> weights;
  std::vector<edge_t> next;
  for (vertex_t from = 0; from < n;) {
    // The longest run of sources from `from` whose rows fit the window (at least one row).
    vertex_t to = static_cast<vertex_t>(
        std::upper_bound(offsets.begin() + from + 1, offsets.end(), offsets[from] + window_edges) - offsets.begin() -
        1);
    to = std::max(to, from + 1);
    const edge_t base = offsets[from], count = offsets[to] - base;
    targets.resize(count);
    if (options.weights) weights.resize(count);
    next.assign(offsets.begin() + from, offsets.begin() + to);
    each_slice(options, [&](const EdgeList& slice, edge_t) {
      const auto* w = std::get_if<std::vector<std::uint32_t>>(&slice.weights);
      for (std::size_t i = 0; i < slice.edges.size(); ++i) {
        const Edge& e = slice.edges[i];
        if (e.src < from || e.src >= to) continue;
        const edge_t at = next[e.src - from]++ - base;
        targets[at] = e.dst;
        if (w) weights[at] = (*w)[i];
      }
    });
    parallel_for(to - from, threads_for(count, 1 << 16), [&](std::uint64_t a, std::uint64_t b, unsigned) {
      sort_window_rows(offsets, from + static_cast<vertex_t>(a), from + static_cast<vertex_t>(b), base, targets.data(),
                       options.weights ? weights.data() : static_cast<std::uint32_t*>(nullptr));
    });
    file.write(targets.data(), count * sizeof(vertex_t));
    if (options.weights) put_weights(weights.data(), count * sizeof(std::uint32_t), weights_at + base * 4);
    writing.add(count);
    from = to;
  }
  targets = {};
  weights = {};
  next = {};
  if (options.weights) {  // the file's end: the weights are in place, then the padding
    const char padding[8] = {};
    put_weights(padding, io::padded8(m * 4) - m * 4, weights_at + m * 4);
  }

  // The checksum over the file as written, then the header with it in place.
  const std::string& written_path = file.temporary_path();
  {
    const int fd = ::open(written_path.c_str(), O_RDWR | O_CLOEXEC);
    if (fd < 0) throw Error(fmt::format("{}: cannot reopen: {}", written_path, std::strerror(errno)));
    const Closer closer{fd};
    const MappedFile mapped(written_path);
    Progress hashing("checking " + path, mapped.size());
    header.checksum =
        io::checksum(header, io::arrays_in(mapped.data(), header), hashing, &mapped);  // pages go as hashed
    if (::pwrite(fd, &header, sizeof header, 0) != static_cast<ssize_t>(sizeof header))
      throw Error(fmt::format("{}: cannot write: {}", written_path, std::strerror(errno)));
  }
  file.commit();
}

}  // namespace courier::graph
