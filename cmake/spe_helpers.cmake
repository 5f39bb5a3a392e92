# Small helpers shared by the component CMakeLists.

# SPE_RUN: the emulator command that starts a built program (empty natively).
# ctest runs a test's own COMMAND through CMAKE_CROSSCOMPILING_EMULATOR itself;
# programs a test starts (shell scripts, system(), fork/exec) are prefixed with
# $SPE_RUN, which every test gets in its environment (tests/lib/run.h).
string(REPLACE ";" " " SPE_RUN "${CMAKE_CROSSCOMPILING_EMULATOR}")

# spe_test_environment(test...): give the tests SPE_RUN, and XDG_CONFIG_HOME in the build
# tree (the key of kept directories, cli/common/kept_dirs.h).  Call it after every
# add_test (spe_add_unit_test and spe_add_fuzzer do).
function(spe_test_environment)
  set_property(TEST ${ARGN} APPEND PROPERTY ENVIRONMENT "SPE_RUN=${SPE_RUN}")
  # the user's key that seals kept directories (cli/common/kept_dirs.h): the build tree's, not ~/.config's
  set_property(TEST ${ARGN} APPEND PROPERTY ENVIRONMENT "XDG_CONFIG_HOME=${CMAKE_BINARY_DIR}/test-config")
endfunction()

# spe_add_unit_test(NAME SOURCES src... [LIBS lib...] [LABELS l...])
# Builds tests/<...> into an executable and registers it with ctest.
function(spe_add_unit_test name)
  cmake_parse_arguments(T "" "" "SOURCES;LIBS;LABELS;ARGS" ${ARGN})
  add_executable(${name} ${T_SOURCES})
  target_link_libraries(${name} PRIVATE ${T_LIBS} spe_testlib)
  add_test(NAME ${name} COMMAND ${name} ${T_ARGS})
  set_tests_properties(${name} PROPERTIES LABELS "unit;${T_LABELS}" SKIP_RETURN_CODE 77)
  spe_test_environment(${name})
endfunction()

# spe_add_fuzzer(NAME SOURCE src LIBS lib... CORPUS dir... [ARGS libfuzzer-flag...])
# With SPE_FUZZ: a libFuzzer binary, run for SPE_FUZZ_SECONDS by ctest (label fuzz),
# with ARGS besides (-close_fd_mask=2 for a target that prints on every input).
# Without: the same entry point linked to a driver that replays the corpus
# files, so every build checks the fuzz target still runs clean on its seeds.
set(SPE_FUZZ_SECONDS 30 CACHE STRING "Seconds each fuzz target runs in ctest")
function(spe_add_fuzzer name)
  cmake_parse_arguments(F "" "SOURCE" "LIBS;CORPUS;ARGS" ${ARGN})
  if(SPE_FUZZ)
    add_executable(${name} ${F_SOURCE})
    target_link_options(${name} PRIVATE -fsanitize=fuzzer)
    target_link_libraries(${name} PRIVATE ${F_LIBS})
    set(workdir ${CMAKE_CURRENT_BINARY_DIR}/${name}.corpus)
    file(MAKE_DIRECTORY ${workdir})
    add_test(NAME ${name} COMMAND ${name} -max_total_time=${SPE_FUZZ_SECONDS} -rss_limit_mb=1024
             -timeout=10 ${F_ARGS} ${workdir} ${F_CORPUS})
    set_tests_properties(${name} PROPERTIES LABELS fuzz)
    spe_test_environment(${name})
  else()
    add_executable(${name} ${F_SOURCE} ${CMAKE_SOURCE_DIR}/fuzz/replay_main.c)
    target_link_libraries(${name} PRIVATE ${F_LIBS})
    add_test(NAME ${name}_seeds COMMAND ${name} ${F_CORPUS})
    set_tests_properties(${name}_seeds PROPERTIES LABELS "fuzz-seeds")
    spe_test_environment(${name}_seeds)
  endif()
endfunction()

# spe_add_fuzzers_in(DIR LIBS lib... [ARGS flag...]): every DIR/fuzz_<x>.c becomes fuzz target
# fuzz_<x> whose seed corpus is fixtures/fuzz/<x>/ (which must exist).
function(spe_add_fuzzers_in dir)
  cmake_parse_arguments(F "" "" "LIBS;ARGS" ${ARGN})
  file(GLOB srcs CONFIGURE_DEPENDS ${dir}/fuzz_*.c)
  foreach(src ${srcs})
    get_filename_component(base ${src} NAME_WE)
    string(REGEX REPLACE "^fuzz_" "" x ${base})
    spe_add_fuzzer(${base} SOURCE ${src} LIBS ${F_LIBS} CORPUS ${SPE_FIXTURES_DIR}/fuzz/${x} ARGS ${F_ARGS})
  endforeach()
endfunction()
