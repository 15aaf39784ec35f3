#pragma once
// SsspBuckets: delta-stepping's pending vertices, filed by bucket (distance / delta) as their
// distances improve, so a round takes its bucket's vertices without looking at the others: a
// grid's later buckets may hold far more vertices than the current one. A vertex improved again
// is filed again where its new distance falls; its entry in the old bucket is then stale and
// skipped when that bucket comes (a vertex's distance only falls). Not thread-safe: sssp keeps one
// per thread, so that threads file in parallel.
#include <array>
#include <cstdint>
#include <map>
#include <utility>
#include <vector>

#include "courier/dist/local_graph.hpp"

namespace courier::algo {

class SsspBuckets {
 public:
  using local_t = dist::local_t;

  explicit SsspBuckets(std::uint64_t delta) : delta_(delta) {}
  // Movable (the map's nodes move with it, so the recent table stays right), not copyable.
  SsspBuckets(SsspBuckets&&) = default;
  SsspBuckets& operator=(SsspBuckets&&) = default;
  SsspBuckets(const SsspBuckets&) = delete;
  SsspBuckets& operator=(const SsspBuckets&) = delete;

  std::uint64_t bucket_of(std::uint64_t distance) const { return distance / delta_; }
  void file(local_t v, std::uint64_t distance) { list_of(bucket_of(distance)).push_back(v); }

  // fn(v) for each vertex filed in a bucket below `end_bucket` whose distance (distance_of(v))
  // still falls in the bucket it was filed in; those buckets are emptied.
  template <class DistanceOf, class Fn>
  void take_below(std::uint64_t end_bucket, DistanceOf distance_of, Fn&& fn) {
    while (!by_bucket_.empty() && by_bucket_.begin()->first < end_bucket) {
      auto first = by_bucket_.begin();
      const std::uint64_t bucket = first->first;
      std::vector<local_t> vertices = std::move(first->second);
      forget(bucket);
      by_bucket_.erase(first);
      for (local_t v : vertices)
        if (bucket_of(distance_of(v)) == bucket) fn(v);
    }
  }

  // The first bucket holding a vertex whose distance is still in it, dropping stale entries on the
  // way; false when none is left.
  template <class DistanceOf>
  bool first_bucket(DistanceOf distance_of, std::uint64_t& bucket) {
    while (!by_bucket_.empty()) {
      auto first = by_bucket_.begin();
      std::vector<local_t>& vertices = first->second;
      while (!vertices.empty() && bucket_of(distance_of(vertices.back())) != first->first) vertices.pop_back();
      if (!vertices.empty()) {
        bucket = first->first;
        return true;
      }
      forget(first->first);
      by_bucket_.erase(first);
    }
    return false;
  }

 private:
  // A bucket's list, found through a small direct-mapped table of recent buckets before the map
  // (whose nodes stay put until erased): a round files most vertices into a few buckets, and a
  // map lookup for each cost more than the filing.
  std::vector<local_t>& list_of(std::uint64_t bucket) {
    Recent& recent = recent_[bucket % recent_.size()];
    if (recent.list == nullptr || recent.bucket != bucket) recent = {bucket, &by_bucket_[bucket]};
    return *recent.list;
  }
  void forget(std::uint64_t bucket) {
    Recent& recent = recent_[bucket % recent_.size()];
    if (recent.bucket == bucket) recent.list = nullptr;
  }

  struct Recent {
    std::uint64_t bucket = 0;
    std::vector<local_t>* list = nullptr;
  };
  std::uint64_t delta_;
  std::map<std::uint64_t, std::vector<local_t>> by_bucket_;
  std::array<Recent, 256> recent_{};
};

}  // namespace courier::algo
