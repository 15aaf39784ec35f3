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
