#include "courier/dist/collective.hpp"

#include <algorithm>
#include <cstring>

#include "courier/core/error.hpp"

namespace courier::dist {

namespace {

template <class T>
Bytes bytes_of(const T& value) {
  Bytes out(sizeof value);
  std::memcpy(out.data(), &value, sizeof value);
  return out;
}

template <class T>
T value_of(const Bytes& bytes) {
  if (bytes.size() != sizeof(T)) throw Error("Collective: a rank sent a value of the wrong size");
  T value;
  std::memcpy(&value, bytes.data(), sizeof value);
  return value;
}

}  // namespace

std::vector<Bytes> Collective::all_gather(const Bytes& mine) const {
  if (ranks == 1) return {mine};
  return exchange(std::vector<Bytes>(static_cast<std::size_t>(ranks), mine));
}

std::uint64_t Collective::sum(std::uint64_t value) const {
  std::uint64_t total = 0;
  for (const Bytes& b : all_gather(bytes_of(value))) total += value_of<std::uint64_t>(b);
  return total;
}

std::uint64_t Collective::exclusive_sum(std::uint64_t value) const {
  const std::vector<Bytes> all = all_gather(bytes_of(value));
  std::uint64_t before = 0;
  for (rank_t r = 0; r < rank; ++r) before += value_of<std::uint64_t>(all[static_cast<std::size_t>(r)]);
  return before;
}

std::uint64_t Collective::max(std::uint64_t value) const {
  std::uint64_t best = 0;
  for (const Bytes& b : all_gather(bytes_of(value))) best = std::max(best, value_of<std::uint64_t>(b));
  return best;
}

double Collective::max(double value) const {
  double best = value;
  for (const Bytes& b : all_gather(bytes_of(value))) best = std::max(best, value_of<double>(b));
  return best;
}

std::string Collective::first_error(const std::string& mine) const {
  Bytes bytes(mine.size());
  if (!mine.empty()) std::memcpy(bytes.data(), mine.data(), mine.size());
  for (const Bytes& b : all_gather(bytes))
    if (!b.empty()) return std::string(reinterpret_cast<const char*>(b.data()), b.size());
  return {};
}

Collective solo_collective() {
  Collective solo;
  solo.exchange = [](std::vector<Bytes> outgoing) { return outgoing; };
  return solo;
}

}  // namespace courier::dist
