# courier_mpi_tests(<folder> DEPS ... RANKS n...): each tests/<folder>/*_test.cpp becomes one
# GoogleTest program with an MPI main (tests/net/mpi_gtest_main.cpp), registered once per rank
# count as `<folder>.<name>.np<n>` running under mpiexec. courier_tests() skips these folders.
include_guard(GLOBAL)

# Open MPI as root needs --allow-run-as-root, and --oversubscribe to run more ranks than cores;
# ob1 over shared memory (vader) without the single-copy mechanism (CMA needs ptrace rights that
# containers often lack) starts fast and stays quiet. MPICH takes none of these: clear the variable.
execute_process(COMMAND ${MPIEXEC_EXECUTABLE} --version OUTPUT_VARIABLE courier_mpiexec_version
  ERROR_QUIET)
if(courier_mpiexec_version MATCHES "Open MPI|OpenRTE")
  set(courier_default_mpiexec_flags --allow-run-as-root --oversubscribe --bind-to none
    --mca pml ob1 --mca btl self,vader --mca btl_vader_single_copy_mechanism none)
else()
  set(courier_default_mpiexec_flags "")
endif()
set(COURIER_MPIEXEC_FLAGS "${courier_default_mpiexec_flags}" CACHE STRING
  "Flags given to mpiexec before the program, for tests under MPI")
set(COURIER_MPI_TEST_TIMEOUT 120 CACHE STRING "Seconds one MPI test program may take")

function(courier_mpi_tests folder)
  cmake_parse_arguments(ARG "" "" "DEPS;RANKS" ${ARGN})
  file(GLOB test_sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/${folder}/*_test.cpp)
  string(REPLACE "/" "_" prefix ${folder})
  string(REPLACE "/" "." label ${folder})
  string(REGEX REPLACE "/.*" "" layer ${folder})
  foreach(source IN LISTS test_sources)
    get_filename_component(name ${source} NAME_WE)
    set(target ${prefix}_${name})
    add_executable(${target} ${source} ${CMAKE_CURRENT_SOURCE_DIR}/net/mpi_gtest_main.cpp)
    target_link_libraries(${target} PRIVATE ${ARG_DEPS} GTest::gtest)
    target_include_directories(${target} PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
    courier_target_defaults(${target})
    courier_test_program(${target})
    foreach(ranks IN LISTS ARG_RANKS)
      add_test(NAME ${label}.${name}.np${ranks}
        COMMAND ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} ${ranks} ${COURIER_MPIEXEC_FLAGS}
          ${MPIEXEC_PREFLAGS} $<TARGET_FILE:${target}> ${MPIEXEC_POSTFLAGS})
      # MPI's own allocations outlive main; LeakSanitizer would blame them on us.
      set_tests_properties(${label}.${name}.np${ranks} PROPERTIES TIMEOUT ${COURIER_MPI_TEST_TIMEOUT}
        LABELS "${layer};mpi" PROCESSORS ${ranks} ENVIRONMENT "ASAN_OPTIONS=detect_leaks=0")
    endforeach()
  endforeach()
endfunction()
