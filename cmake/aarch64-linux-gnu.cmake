# Cross-compile for arm64 with Debian's gcc-aarch64-linux-gnu; ctest runs the
# test binaries under qemu-user (its -L prefix: see below).
#   cmake -S . -B build/arm64 -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake -DSPE_WITH_ANALYSIS=OFF
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)

set(SPE_CROSS_TRIPLE aarch64-linux-gnu)
set(SPE_CROSS_SYSROOT /usr/${SPE_CROSS_TRIPLE})

find_program(CMAKE_C_COMPILER NAMES ${SPE_CROSS_TRIPLE}-gcc REQUIRED)
find_program(SPE_QEMU_AARCH64 NAMES qemu-aarch64 qemu-aarch64-static REQUIRED)
# qemu's -L prefix decides where the guest's dynamic loader comes from; the
# loader then finds libc.so.6 through /etc/ld.so.cache, i.e. in the multiarch
# /lib/aarch64-linux-gnu once libc6:arm64 is installed (the :arm64 -dev
# packages pull it in).  Loader and libc must be one build: with the cross
# toolchain's loader (libc6-arm64-cross) beside multiarch libc6:arm64 of
# another version, glibc's private state in the loader (the thread-stack
# lists) is laid out differently, and the first pthread_create, or the child
# of a fork, walks a list at the wrong offset forever (spe-load --jobs=2 and
# the forking tests "hung under qemu-user").  So: the multiarch loader when it
# is there, else the toolchain's.
if(EXISTS /lib/${SPE_CROSS_TRIPLE}/ld-linux-aarch64.so.1)
  set(SPE_QEMU_PREFIX /)
else()
  set(SPE_QEMU_PREFIX ${SPE_CROSS_SYSROOT})
endif()
set(CMAKE_CROSSCOMPILING_EMULATOR ${SPE_QEMU_AARCH64} -L ${SPE_QEMU_PREFIX})

# The toolchain's own sysroot, plus Debian multiarch arm64 packages
# (apt-get install libsqlite3-dev:arm64 ...) under /usr/lib/aarch64-linux-gnu.
set(CMAKE_FIND_ROOT_PATH ${SPE_CROSS_SYSROOT} /)
set(CMAKE_LIBRARY_ARCHITECTURE ${SPE_CROSS_TRIPLE})
# Headers of those packages live in /usr/include, which the cross compiler does
# not search; -idirafter keeps the toolchain's libc headers first.
set(CMAKE_C_FLAGS_INIT "-idirafter /usr/include")
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# pkg-config must look at arm64 .pc files (multiarch), never at the host's.
set(ENV{PKG_CONFIG_LIBDIR} "/usr/lib/${SPE_CROSS_TRIPLE}/pkgconfig:/usr/share/pkgconfig")
set(ENV{PKG_CONFIG_PATH} "")
