#pragma once
// Helpers for GoogleTest programs that run as MPI ranks: every rank runs every test in the same
// order; rank 0 prints the usual report, the others print only their failures, tagged.
#include <mpi.h>

#include <cstdio>

#include <gtest/gtest.h>

namespace courier::test_support {

inline int world_rank() {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

inline int world_size() {
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  return size;
}

class RankFailurePrinter : public ::testing::EmptyTestEventListener {
 public:
  explicit RankFailurePrinter(int rank) : rank_(rank) {}
  void OnTestPartResult(const ::testing::TestPartResult& result) override {
    if (!result.failed()) return;
    std::fprintf(stderr, "[rank %d] %s:%d: %s\n", rank_, result.file_name() ? result.file_name() : "?",
                 result.line_number(), result.summary());
  }

 private:
  int rank_;
};

// MPI_Init_thread at `level` around RUN_ALL_TESTS; fails on every rank if any rank failed.
inline int run_all_tests_under_mpi(int argc, char** argv, int level) {
  int provided = 0;
  MPI_Init_thread(&argc, &argv, level, &provided);
  if (provided < level) {
    std::fprintf(stderr, "this MPI provides thread level %d, the test needs %d\n", provided, level);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  ::testing::InitGoogleTest(&argc, argv);
  const int rank = world_rank();
  auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
  if (rank != 0) {
    delete listeners.Release(listeners.default_result_printer());
    listeners.Append(new RankFailurePrinter(rank));
  }
  int failed = RUN_ALL_TESTS();
  int any_failed = 0;
  MPI_Allreduce(&failed, &any_failed, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Finalize();
  return any_failed;
}

}  // namespace courier::test_support
