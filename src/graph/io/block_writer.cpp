#include "block_writer.hpp"

#include <algorithm>
#include <exception>
#include <string_view>
#include <thread>
#include <vector>

namespace courier::graph::io {

void append_real(fmt::memory_buffer& out, float value) {
  const std::size_t start = out.size();
  fmt::format_to(std::back_inserter(out), "{}", value);
  const std::string_view text(out.data() + start, out.size() - start);
  if (text.find_first_of(".eninf") == std::string_view::npos) out.append(std::string_view(".0"));
}

void write_blocks(AtomicFile& file, std::uint64_t items, const FormatBlock& format,
                  std::uint64_t items_per_block) {
  const std::uint64_t blocks = (items + items_per_block - 1) / items_per_block;
  const unsigned threads = static_cast<unsigned>(
      std::clamp<std::uint64_t>(std::thread::hardware_concurrency(), 1, std::max<std::uint64_t>(blocks, 1)));
  Progress progress("writing " + file.path(), items, 4u << 20);
  std::vector<fmt::memory_buffer> buffers(threads);
  for (std::uint64_t round = 0; round < blocks; round += threads) {
    const unsigned here = static_cast<unsigned>(std::min<std::uint64_t>(threads, blocks - round));
    auto run = [&](unsigned t) {
      buffers[t].clear();
      const std::uint64_t first = (round + t) * items_per_block;
      format(first, std::min(items, first + items_per_block), buffers[t]);
    };
    if (here == 1) {
      run(0);
    } else {
      std::vector<std::exception_ptr> errors(here);
      std::vector<std::thread> workers;
      for (unsigned t = 0; t < here; ++t)
        workers.emplace_back([&, t] {
          try {
            run(t);
          } catch (...) {
            errors[t] = std::current_exception();
          }
        });
      for (auto& worker : workers) worker.join();
      for (auto& error : errors)
        if (error) std::rethrow_exception(error);
    }
    for (unsigned t = 0; t < here; ++t) file.write(buffers[t].data(), buffers[t].size());
    progress.add(std::min(items, (round + here) * items_per_block) - round * items_per_block);
  }
}

}  // namespace courier::graph::io
