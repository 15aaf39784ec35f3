#pragma once
// SsspBuckets: delta-stepping's pending vertices, filed by bucket (distance / delta) as their
// distances improve, so a round takes its bucket's vertices without looking at the others: a
// grid's later buckets may hold far more vertices than the current one. A vertex improved again
// is filed again where its new distance falls; its entry in the old bucket is then stale and
// skipped when that bucket comes (a vertex's distance only falls).
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

  std::uint64_t bucket_of(std::uint64_t distance) const { return distance / delta_; }
  void file(local_t v, std::uint64_t distance) { by_bucket_[bucket_of(distance)].push_back(v); }

  // fn(v) for each vertex filed in a bucket below `end_bucket` whose distance (distance_of(v))
  // still falls in the bucket it was filed in; those buckets are emptied.
  template <class DistanceOf, class Fn>
  void take_below(std::uint64_t end_bucket, DistanceOf distance_of, Fn&& fn) {
    while (!by_bucket_.empty() && by_bucket_.begin()->first < end_bucket) {
      auto first = by_bucket_.begin();
      const std::uint64_t bucket = first->first;
      std::vector<local_t> vertices = std::move(first->second);
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
      by_bucket_.erase(first);
    }
    return false;
  }

 private:
  std::uint64_t delta_;
  std::map<std::uint64_t, std::vector<local_t>> by_bucket_;
};

}  // namespace courier::algo
