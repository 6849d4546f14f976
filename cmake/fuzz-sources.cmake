# SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
# The fuzz targets (test/*/fuzz-smoke.sh) are built by clang with
# -fsanitize=fuzzer outside this build, from the same sources as the
# libraries they exercise: each library's source list is written here, one
# absolute path a line, to ${CMAKE_BINARY_DIR}/fuzz-sources/TARGET.txt, so a
# file added to a library is fuzzed without editing the scripts.
foreach(target elfobj bpfld_core bpfkeys_core libbpfkeys_objects)
  if(NOT TARGET ${target})
    continue()
  endif()
  get_target_property(sources ${target} SOURCES)
  get_target_property(source_dir ${target} SOURCE_DIR)
  set(paths "")
  foreach(source IN LISTS sources)
    if(NOT source MATCHES "\\.c$")
      continue()
    endif()
    if(NOT IS_ABSOLUTE "${source}")
      set(source "${source_dir}/${source}")
    endif()
    string(APPEND paths "${source}\n")
  endforeach()
  file(WRITE ${CMAKE_BINARY_DIR}/fuzz-sources/${target}.txt "${paths}")
endforeach()
