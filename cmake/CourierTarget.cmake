# Flags every Courier target gets. Warnings are errors on our code only: dependencies are found as
# imported targets, so their headers are SYSTEM includes and their warnings stay quiet.
include_guard(GLOBAL)

if(COURIER_NATIVE)
  set(COURIER_ARCH_FLAGS -march=native)
else()
  set(COURIER_ARCH_FLAGS -march=x86-64-v2)
endif()

# Release code's optimisation level; tests/ sets it lower for the test programs (it says why).
set(COURIER_RELEASE_OPTIMIZATION -O3)

set(COURIER_SANITIZE_FLAGS "")
if(COURIER_SANITIZE)
  set(COURIER_SANITIZE_FLAGS -fsanitize=${COURIER_SANITIZE} -fno-omit-frame-pointer -fno-sanitize-recover=all)
endif()

function(courier_target_defaults target)
  target_compile_features(${target} PUBLIC cxx_std_20)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Werror
    $<$<CONFIG:Release>:${COURIER_RELEASE_OPTIMIZATION}> ${COURIER_ARCH_FLAGS} ${COURIER_SANITIZE_FLAGS})
  if(COURIER_SANITIZE)
    target_link_options(${target} PUBLIC ${COURIER_SANITIZE_FLAGS})
  endif()
endfunction()

# courier_library(<layer> [DEPS ...] [EXCLUDE_REGEX re]): the static library Courier::<layer> from
# src/<layer>/**.cpp, leaving out sources whose path matches `re` (e.g. parts built only with MPI).
function(courier_library layer)
  cmake_parse_arguments(ARG "" "EXCLUDE_REGEX" "DEPS;PRIVATE_DEPS" ${ARGN})
  file(GLOB_RECURSE sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/*.cpp)
  if(ARG_EXCLUDE_REGEX)
    list(FILTER sources EXCLUDE REGEX "${ARG_EXCLUDE_REGEX}")
  endif()
  set(target courier_${layer})
  add_library(${target} STATIC ${sources})
  add_library(Courier::${layer} ALIAS ${target})
  set_target_properties(${target} PROPERTIES EXPORT_NAME ${layer} OUTPUT_NAME courier_${layer}
    POSITION_INDEPENDENT_CODE ON)
  target_include_directories(${target} PUBLIC
    $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include> $<INSTALL_INTERFACE:include>)
  target_link_libraries(${target} PUBLIC ${ARG_DEPS} PRIVATE ${ARG_PRIVATE_DEPS})
  courier_target_defaults(${target})
  set_property(GLOBAL APPEND PROPERTY COURIER_LIBRARIES ${target})
endfunction()
