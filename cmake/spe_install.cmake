# What `cmake --install BUILD [--prefix P]` puts under the prefix (the
# commands install themselves in cli/CMakeLists.txt, the man pages in
# docs/CMakeLists.txt).  docs/libraries.md says which libraries are public:
# only libspe.  Everything here is found relative to the prefix, so an
# installed tree can be moved; tests/install/ checks that.
include(CMakePackageConfigHelpers)

# libspe: shared and static, the public headers, pkg-config and CMake package.
install(TARGETS spe_decoder spe_decoder_static EXPORT spekitTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
file(GLOB spe_public_headers CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/decoder/include/spe/*.h)
install(FILES ${spe_public_headers} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/spe)

set(spe_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/spekit)
install(EXPORT spekitTargets NAMESPACE spekit:: DESTINATION ${spe_cmake_dir})
configure_package_config_file(${CMAKE_SOURCE_DIR}/cmake/spekitConfig.cmake.in
  ${CMAKE_BINARY_DIR}/spekitConfig.cmake INSTALL_DESTINATION ${spe_cmake_dir})
# 0.x: a minor release may change the API, so only the same minor version matches.
write_basic_package_version_file(${CMAKE_BINARY_DIR}/spekitConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/spekitConfig.cmake ${CMAKE_BINARY_DIR}/spekitConfigVersion.cmake
        DESTINATION ${spe_cmake_dir})

# libspe.pc.  By default its prefix is found from the file's own place
# (${pcfiledir}), so a moved tree still resolves; a distribution that installs
# into a fixed prefix sets -DSPE_PC_RELOCATABLE=OFF for plain absolute paths.
option(SPE_PC_RELOCATABLE "libspe.pc locates the prefix relative to itself" ON)
set(spe_pc_dir ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
if(SPE_PC_RELOCATABLE)
  file(RELATIVE_PATH spe_pc_to_prefix ${CMAKE_INSTALL_PREFIX}/${spe_pc_dir} ${CMAKE_INSTALL_PREFIX})
  string(REGEX REPLACE "/$" "" spe_pc_to_prefix "${spe_pc_to_prefix}")
  set(SPE_PC_PREFIX "\${pcfiledir}/${spe_pc_to_prefix}")
else()
  set(SPE_PC_PREFIX "${CMAKE_INSTALL_PREFIX}")
endif()
configure_file(${CMAKE_SOURCE_DIR}/cmake/libspe.pc.in ${CMAKE_BINARY_DIR}/libspe.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/libspe.pc DESTINATION ${spe_pc_dir})

# Documentation and the library examples.
file(GLOB spe_doc_files CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/docs/*.md)
install(FILES ${CMAKE_SOURCE_DIR}/README.md ${spe_doc_files} DESTINATION ${CMAKE_INSTALL_DOCDIR})
file(GLOB spe_doc_examples CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/docs/examples/*.c)
install(FILES ${spe_doc_examples} DESTINATION ${CMAKE_INSTALL_DOCDIR}/examples)

# The main job's demo: the memwork and datawork fixture traces, the programs
# they sample, and demo.sh, which runs scripts/demo-steps.sh with the
# commands of this prefix.
set(spe_demo_dir ${CMAKE_INSTALL_DATADIR}/spekit/demo)
file(GLOB spe_demo_traces CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/fixtures/workloads/traces/memwork*
     ${CMAKE_SOURCE_DIR}/fixtures/workloads/traces/datawork*)
install(FILES ${spe_demo_traces}
              ${CMAKE_SOURCE_DIR}/fixtures/workloads/memwork.c # the sources spe-report annotates
              ${CMAKE_SOURCE_DIR}/fixtures/workloads/datawork.c
        DESTINATION ${spe_demo_dir})
install(FILES ${CMAKE_SOURCE_DIR}/fixtures/elf/memwork-pie ${CMAKE_SOURCE_DIR}/fixtures/elf/datawork-pie
        DESTINATION ${spe_demo_dir}/elf)
install(PROGRAMS ${CMAKE_SOURCE_DIR}/scripts/demo-steps.sh DESTINATION ${spe_demo_dir})
file(RELATIVE_PATH spe_demo_to_bin ${CMAKE_INSTALL_PREFIX}/${spe_demo_dir} ${CMAKE_INSTALL_FULL_BINDIR})
file(CONFIGURE OUTPUT ${CMAKE_BINARY_DIR}/demo.sh CONTENT [[#!/bin/sh
# spekit's main job on the installed fixture traces: replay them into perf.data,
# decode, load into SQLite with symbols, query and report (last, the HTML pages).
#   demo.sh [OUTDIR]      (default: ./spe-demo)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
bin=$(cd "$here/@spe_demo_to_bin@" && pwd)
exec sh "$here/demo-steps.sh" "$bin" "$here" "$here/elf" "${1:-spe-demo}"
]] @ONLY)
install(PROGRAMS ${CMAKE_BINARY_DIR}/demo.sh DESTINATION ${spe_demo_dir})

# bash completion: one script, and a link to it under each command's name,
# where bash-completion looks for it.
get_property(spe_command_targets GLOBAL PROPERTY SPE_COMMAND_TARGETS)
string(REPLACE ";" " " SPE_COMMAND_NAMES "${spe_command_targets}")
configure_file(${CMAKE_SOURCE_DIR}/cli/completion.bash ${CMAKE_BINARY_DIR}/completion/spe @ONLY)
set(spe_completion_dir ${CMAKE_INSTALL_DATADIR}/bash-completion/completions)
install(FILES ${CMAKE_BINARY_DIR}/completion/spe DESTINATION ${spe_completion_dir})
foreach(cmd ${spe_command_targets})
  if(NOT cmd STREQUAL "spe")
    install(CODE "file(CREATE_LINK spe \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${spe_completion_dir}/${cmd}\" SYMBOLIC)
                  message(STATUS \"Installing: \$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${spe_completion_dir}/${cmd} -> spe\")")
  endif()
endforeach()
