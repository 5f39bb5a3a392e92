# The real-capture kit's tests (tests/realcap/README.md), included by
# tests/tools/CMakeLists.txt once spe-splice exists.  Label realcap.
set(realcap_dir ${CMAKE_CURRENT_LIST_DIR})
set(realcap_fixtures ${SPE_FIXTURES_DIR}/realcap)

# The scorer, the integrity check of spe-splice's output, and the stand-in
# (built here only to keep it compiling; record.sh builds it static).
add_executable(realcap_score ${realcap_dir}/realcap_score.c)
add_executable(realcap_stand_in ${realcap_dir}/stand_in.c)
find_package(Threads REQUIRED)
target_link_libraries(realcap_stand_in PRIVATE Threads::Threads)
add_executable(test_splice_integrity ${realcap_dir}/test_splice_integrity.c)
target_link_libraries(test_splice_integrity PRIVATE spe_splice_core spe_decoder spe_testlib)

add_test(NAME realcap_splice_integrity
         COMMAND test_splice_integrity $<TARGET_FILE:spe-splice> ${realcap_fixtures}/sysroot
                 ${realcap_fixtures}/cases ${realcap_dir}/cases.txt ${CMAKE_CURRENT_BINARY_DIR}/realcap_integrity)
set_tests_properties(realcap_splice_integrity PROPERTIES LABELS "realcap;unit")
spe_test_environment(realcap_splice_integrity)

# The scorer on hand-written inputs: it must say WRONG, unknown and pass where due.
add_test(NAME realcap_scorer_selftest
         COMMAND sh ${realcap_dir}/selftest/run.sh $<TARGET_FILE:realcap_score> ${realcap_dir}/selftest)
set_tests_properties(realcap_scorer_selftest PROPERTIES LABELS "realcap")
spe_test_environment(realcap_scorer_selftest)

# The aarch64 programs rebuild to the committed bytes (skips without the cross compiler).
add_test(NAME realcap_binaries_reproducible
         COMMAND sh ${realcap_dir}/reproducible.sh ${SPE_FIXTURES_DIR} ${CMAKE_CURRENT_BINARY_DIR}/realcap_rebuild)
set_tests_properties(realcap_binaries_reproducible PROPERTIES LABELS "realcap" SKIP_RETURN_CODE 77)
spe_test_environment(realcap_binaries_reproducible)

# One test per line of cases.txt; those named in expected_failures.txt pass
# while they fail (score.sh --expected-failure) and fail once they pass.
file(STRINGS ${realcap_dir}/expected_failures.txt realcap_xfail_lines REGEX "^[a-z]")
set(realcap_xfail "")
foreach(line ${realcap_xfail_lines})
  string(REGEX MATCH "^[^ \t]+" t "${line}")
  list(APPEND realcap_xfail ${t})
endforeach()
file(STRINGS ${realcap_dir}/cases.txt realcap_lines REGEX "^[a-z]")
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
             ${realcap_dir}/cases.txt ${realcap_dir}/expected_failures.txt)
foreach(line ${realcap_lines})
  string(REGEX REPLACE "[ \t]+" ";" words "${line}")
  list(GET words 0 test)
  list(GET words 1 case)
  list(REMOVE_AT words 0 1)
  set(labels "realcap;perf")
  if(test IN_LIST realcap_xfail)
    list(APPEND words --expected-failure)
    list(APPEND labels expected-failure)
  endif()
  add_test(NAME realcap/${test}
           COMMAND sh ${realcap_dir}/score.sh ${test} ${realcap_fixtures}/cases/${case} ${realcap_fixtures}/sysroot
                   $<TARGET_FILE:spe-splice> $<TARGET_FILE:spe-load> $<TARGET_FILE:spe-query>
                   $<TARGET_FILE:realcap_score> ${words})
  set_tests_properties(realcap/${test} PROPERTIES LABELS "${labels}" SKIP_RETURN_CODE 77 TIMEOUT 60)
  spe_test_environment(realcap/${test})
endforeach()
