# SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
# What `cmake --install BUILD [--prefix P]` (and DESTDIR) installs, in two
# components the .debs follow (cmake/package.cmake):
#   tools: bpfld, bpfkeys (bin), bpfkeyctl and bpfkeyctl-stock (sbin: they
#          load programs, root's work; bpfkeyctl execs the bpfkeyctl-stock
#          next to it), their man pages and bash completion;
#   lib:   libbpfkeys.so.MAJOR;
#   dev:   libbpfkeys.so, libbpfkeys.a and <bpfkeys/libbpfkeys.h>, the BPF header <bpf/bpf_static_keys.h>
#          with the uapi header it includes, libbpfkeys.pc, the CMake
#          package (find_package(bpfkeys)) and libbpfkeys(3).
# Every destination is relative to the prefix and the .pc and CMake files
# find the prefix from where they are installed, so --prefix at install time
# and DESTDIR both work. Test helpers (bpf-test-runner, fuzz targets) are
# not installed.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(BPFSK_INSTALL_BIN_TARGETS bpfld bpfkeys)
set(BPFSK_INSTALL_SBIN_TARGETS bpfkeyctl-stock)
# the file names the CMake package's imported targets point at
set(BPFSK_INSTALL_SHARED_FILE
  ${CMAKE_SHARED_LIBRARY_PREFIX}bpfkeys${CMAKE_SHARED_LIBRARY_SUFFIX}.${PROJECT_VERSION})
set(BPFSK_INSTALL_SHARED_SONAME
  ${CMAKE_SHARED_LIBRARY_PREFIX}bpfkeys${CMAKE_SHARED_LIBRARY_SUFFIX}.${PROJECT_VERSION_MAJOR})
set(BPFSK_INSTALL_STATIC_FILE
  ${CMAKE_STATIC_LIBRARY_PREFIX}bpfkeys${CMAKE_STATIC_LIBRARY_SUFFIX})

install(TARGETS ${BPFSK_INSTALL_BIN_TARGETS}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT tools)
install(TARGETS ${BPFSK_INSTALL_SBIN_TARGETS}
  RUNTIME DESTINATION ${CMAKE_INSTALL_SBINDIR} COMPONENT tools)
# bpfkeyctl links the patched libbpf statically and is built by
# tools/bpfkeyctl/build.sh once scripts/build-kernel.sh has built that
# libbpf: installed when it is there.
install(PROGRAMS ${CMAKE_BINARY_DIR}/bin/bpfkeyctl OPTIONAL
  DESTINATION ${CMAKE_INSTALL_SBINDIR} COMPONENT tools)

# libbpfkeys.so.MAJOR (the run-time library, component lib), its
# libbpfkeys.so link, the archive and <bpfkeys/libbpfkeys.h> with its
# generated version header (both targets' PUBLIC_HEADER) for the dev one
install(TARGETS libbpfkeys_shared
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT lib NAMELINK_COMPONENT dev
  PUBLIC_HEADER DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/bpfkeys COMPONENT dev)
install(TARGETS libbpfkeys
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT dev
  PUBLIC_HEADER DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/bpfkeys COMPONENT dev)
# <bpf/bpf_static_keys.h> next to libbpf's <bpf/bpf_helpers.h>; its
# "uapi/linux/bpf_static_keys.h" include resolves beside it
install(DIRECTORY ${PROJECT_SOURCE_DIR}/runtime-headers/
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/bpf COMPONENT dev
  FILES_MATCHING PATTERN "*.h")

# libbpfkeys.pc: prefix from the .pc file's own directory (pkg-config's
# pcfiledir), so the file is right wherever the tree is installed
file(RELATIVE_PATH BPFSK_PC_TO_PREFIX /prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig /prefix)
string(REGEX REPLACE "/$" "" BPFSK_PC_TO_PREFIX "${BPFSK_PC_TO_PREFIX}")
configure_file(${PROJECT_SOURCE_DIR}/cmake/libbpfkeys.pc.in
  ${CMAKE_BINARY_DIR}/install/libbpfkeys.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/install/libbpfkeys.pc
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig COMPONENT dev)

set(BPFSK_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/bpfkeys)
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/bpfkeysConfig.cmake.in
  ${CMAKE_BINARY_DIR}/install/bpfkeysConfig.cmake
  INSTALL_DESTINATION ${BPFSK_CMAKE_DIR}
  PATH_VARS CMAKE_INSTALL_INCLUDEDIR CMAKE_INSTALL_LIBDIR)
# 0.x: a new minor version may change the API
write_basic_package_version_file(${CMAKE_BINARY_DIR}/install/bpfkeysConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/install/bpfkeysConfig.cmake
  ${CMAKE_BINARY_DIR}/install/bpfkeysConfigVersion.cmake
  DESTINATION ${BPFSK_CMAKE_DIR} COMPONENT dev)

# man pages: roff sources in man/, the version filled in here
foreach(page bpfld.1 bpfkeys.1 bpfkeyctl.8 bpfkeyctl-stock.8 libbpfkeys.3)
  string(REGEX REPLACE ".*\\." "" section ${page})
  configure_file(${PROJECT_SOURCE_DIR}/man/${page}.in ${CMAKE_BINARY_DIR}/man/${page} @ONLY)
  if(section STREQUAL "3")
    set(component dev)
  else()
    set(component tools)
  endif()
  install(FILES ${CMAKE_BINARY_DIR}/man/${page}
    DESTINATION ${CMAKE_INSTALL_MANDIR}/man${section} COMPONENT ${component})
endforeach()

# bash completion: one script for the four commands, under each name
# (bash-completion loads completions/COMMAND on first use)
foreach(cmd bpfld bpfkeys bpfkeyctl bpfkeyctl-stock)
  install(FILES ${PROJECT_SOURCE_DIR}/completion/bpfsk.bash RENAME ${cmd}
    DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions COMPONENT tools)
endforeach()
