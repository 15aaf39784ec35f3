# courier_add_program(TARGET PROGRAM.sp... [NAMESPACE ns] [INCLUDE_PREFIX dir]): compiles graph
# programs written in Courier's graph language into the static library TARGET. For each PROGRAM
# (NAME.sp) courierc writes, into TARGET's generated folder, NAME.cpp (the optimised generation,
# in namespace ns), NAME_naive.cpp (the naive one, in ns::naive) and NAME.hpp declaring both; a
# source that links TARGET says #include "[dir/]NAME.hpp". Installed with Courier, so that a
# downstream project does:
#   find_package(Courier REQUIRED)
#   courier_add_program(my_programs bfs_variant.sp NAMESPACE mine)
#   target_link_libraries(my_app PRIVATE my_programs Courier::courier)
include_guard(GLOBAL)

function(courier_add_program target)
  cmake_parse_arguments(ARG "" "NAMESPACE;INCLUDE_PREFIX;COMPILER_TARGET" "" ${ARGN})
  if(NOT ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "courier_add_program(${target}): name at least one .sp program")
  endif()
  if(NOT ARG_NAMESPACE)
    set(ARG_NAMESPACE courier::dsl::programs)
  endif()
  if(ARG_COMPILER_TARGET)  # inside Courier's own build, where courierc is a target
    set(compiler $<TARGET_FILE:${ARG_COMPILER_TARGET}>)
    set(compiler_target ${ARG_COMPILER_TARGET})
  elseif(COURIER_COURIERC)  # an installed Courier (CourierConfig.cmake sets it)
    set(compiler ${COURIER_COURIERC})
    set(compiler_target ${COURIER_COURIERC})
  else()
    message(FATAL_ERROR "courier_add_program(${target}): no courierc (find_package(Courier) first)")
  endif()
  set(folder ${CMAKE_CURRENT_BINARY_DIR}/${target}_generated)
  set(prefix "")
  if(ARG_INCLUDE_PREFIX)
    set(prefix "${ARG_INCLUDE_PREFIX}/")
  endif()
  file(MAKE_DIRECTORY ${folder}/${prefix})
  set(sources "")
  set(headers "")
  foreach(program IN LISTS ARG_UNPARSED_ARGUMENTS)
    get_filename_component(path ${program} ABSOLUTE)
    get_filename_component(name ${program} NAME_WE)
    set(header ${folder}/${prefix}${name}.hpp)
    add_custom_command(OUTPUT ${folder}/${name}.cpp ${header}
      COMMAND ${compiler} ${path} -o ${folder}/${name}.cpp --header ${header} --include ${prefix}${name}.hpp
              --namespace ${ARG_NAMESPACE}
      DEPENDS ${path} ${compiler_target}
      COMMENT "courierc ${program}" VERBATIM)
    add_custom_command(OUTPUT ${folder}/${name}_naive.cpp
      COMMAND ${compiler} ${path} --naive -o ${folder}/${name}_naive.cpp --include ${prefix}${name}.hpp
              --namespace ${ARG_NAMESPACE}
      DEPENDS ${path} ${compiler_target}
      COMMENT "courierc --naive ${program}" VERBATIM)
    list(APPEND sources ${folder}/${name}.cpp ${folder}/${name}_naive.cpp)
    list(APPEND headers ${header})
  endforeach()
  add_library(${target} STATIC ${sources} ${headers})
  target_include_directories(${target} PUBLIC $<BUILD_INTERFACE:${folder}>)
  target_link_libraries(${target} PUBLIC Courier::dsl_runtime)
  set_target_properties(${target} PROPERTIES COURIER_GENERATED_HEADERS "${headers}")
endfunction()
