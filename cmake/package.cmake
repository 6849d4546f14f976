# SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
# Debian packages from the tree (`cpack -G DEB` in the build directory), one
# per install component (cmake/install.cmake):
#   bpf-static-keys  (tools) bpfld, bpfkeys, bpfkeyctl(-stock), man pages,
#                    bash completion
#   libbpfkeys0      (lib)   libbpfkeys.so.0
#   libbpfkeys-dev   (dev)   libbpfkeys.so and .a, <bpfkeys/libbpfkeys.h>, <bpf/bpf_static_keys.h>,
#                    libbpfkeys.pc, the CMake package, libbpfkeys(3)
# Configure with -DCMAKE_INSTALL_PREFIX=/usr for Debian's multiarch libdir.
# The tools' library dependencies come from dpkg-shlibdeps; the -dev
# package's from what its headers and .pc file name.
set(BPFSK_DEB_MAINTAINER "bpf_static_keys <bpf-static-keys@invalid>"
  CACHE STRING "Maintainer field of the .debs")

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME bpf-static-keys)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL tools lib dev)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER ${BPFSK_DEB_MAINTAINER})
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)

set(CPACK_DEBIAN_TOOLS_PACKAGE_NAME bpf-static-keys)
# first line: the synopsis; CPack indents the rest
set(CPACK_COMPONENT_TOOLS_DESCRIPTION
  "BPF static keys: linker, post-processor and loader
bpfld links BPF ELF objects with their static keys and jump tables,
bpfkeys resolves static keys for kernels that patch them in place and
lowers them to fixed branches for stock kernels, bpfkeyctl and
bpfkeyctl-stock load objects and flip their keys (in place on a kernel
with the static keys series, by program replacement on stock kernels).")

set(CPACK_DEBIAN_LIB_PACKAGE_NAME libbpfkeys${PROJECT_VERSION_MAJOR})
set(CPACK_DEBIAN_LIB_PACKAGE_SECTION libs)
set(CPACK_COMPONENT_LIB_DESCRIPTION
  "BPF static keys: the libbpfkeys run-time library
libbpfkeys flips the static keys of BPF programs at run time on stock
kernels by atomic program replacement, on the system's libbpf.")

set(CPACK_DEBIAN_DEV_PACKAGE_NAME libbpfkeys-dev)
set(CPACK_DEBIAN_DEV_PACKAGE_SECTION libdevel)
# bpf_static_keys.h includes <linux/types.h> and <bpf/bpf_helpers.h>;
# libbpfkeys.pc requires libbpf (and libelf, zlib for the archive)
set(CPACK_DEBIAN_DEV_PACKAGE_DEPENDS
  "libbpfkeys${PROJECT_VERSION_MAJOR} (= ${PROJECT_VERSION}), libbpf-dev (>= 1:1.1), libelf-dev, zlib1g-dev, linux-libc-dev, pkg-config")
set(CPACK_COMPONENT_DEV_DESCRIPTION
  "BPF static keys: libbpfkeys and the BPF header
libbpfkeys flips the static keys of BPF programs at run time on stock
kernels by atomic program replacement, on the system's libbpf.
<bpf/bpf_static_keys.h> declares static keys and static branches for BPF
programs. With libbpfkeys.pc and a CMake package (find_package(bpfkeys)).")

include(CPack)
