# `cmake --install` puts the headers, the layer libraries, the courier tool and a package config
# in place, so that a downstream project says find_package(Courier) and links Courier::courier.
include_guard(GLOBAL)
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

get_property(courier_libraries GLOBAL PROPERTY COURIER_LIBRARIES)
add_library(courier INTERFACE)
add_library(Courier::courier ALIAS courier)
target_link_libraries(courier INTERFACE ${courier_libraries})

install(DIRECTORY include/courier DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS ${courier_libraries} courier EXPORT CourierTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT CourierTargets NAMESPACE Courier:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/Courier)

configure_package_config_file(cmake/CourierConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/CourierConfig.cmake
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/Courier)
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/CourierConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/CourierConfig.cmake
  ${CMAKE_CURRENT_BINARY_DIR}/CourierConfigVersion.cmake
  ${CMAKE_CURRENT_SOURCE_DIR}/cmake/CourierAddProgram.cmake
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/Courier)

# courier.pc: the same libraries for pkg-config users, in link order (each layer before the layers
# it uses: the reverse of the order src/ declares them in). Relative to its own directory, so that
# an install moved with `cmake --install --prefix` still finds itself.
set(COURIER_PC_LIBS "")
foreach(library IN LISTS courier_libraries)
  set(COURIER_PC_LIBS "-l${library} ${COURIER_PC_LIBS}")
endforeach()
set(COURIER_PC_REQUIRES "fmt nlohmann_json hwloc")
if(COURIER_WITH_MPI)
  # The MPI's own pkg-config name, Open MPI's (with its C++ library: mpi.h declares it) or MPICH's.
  pkg_check_modules(COURIER_PC_MPI QUIET ompi-cxx)
  if(COURIER_PC_MPI_FOUND)
    string(APPEND COURIER_PC_REQUIRES " ompi-cxx")
  else()
    string(APPEND COURIER_PC_REQUIRES " mpich")
  endif()
endif()
# libfabric is not among them: the ofi transport opens it when it is first used (dlopen).
if(COURIER_HAVE_OFI AND CMAKE_DL_LIBS)
  string(APPEND COURIER_PC_LIBS " -l${CMAKE_DL_LIBS}")
endif()
file(RELATIVE_PATH COURIER_PC_PREFIX_FROM_PCDIR "/prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/prefix")
string(REGEX REPLACE "/$" "" COURIER_PC_PREFIX_FROM_PCDIR "${COURIER_PC_PREFIX_FROM_PCDIR}")
# A sanitizer build's static libraries call into the sanitizer runtime: its users link it too.
if(COURIER_SANITIZE)
  set(COURIER_PC_LIBS "${COURIER_PC_LIBS} -fsanitize=${COURIER_SANITIZE}")
endif()
string(STRIP "${COURIER_PC_LIBS}" COURIER_PC_LIBS)
configure_file(cmake/courier.pc.in ${CMAKE_CURRENT_BINARY_DIR}/courier.pc @ONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/courier.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
