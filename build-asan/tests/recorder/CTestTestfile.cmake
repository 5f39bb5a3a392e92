# CMake generated Testfile for 
# Source directory: /work/wt/recorder/tests/recorder
# Build directory: /work/wt/recorder/build-asan/tests/recorder
# 
# This file includes the relevant testing commands required for 
# testing this directory and lists subdirectories to be tested as well.
add_test(test_replay_manifest "/work/wt/recorder/build-asan/tests/recorder/test_replay_manifest" "/work/wt/recorder/fixtures/replay")
set_tests_properties(test_replay_manifest PROPERTIES  LABELS "unit;" SKIP_RETURN_CODE "77" _BACKTRACE_TRIPLES "/work/wt/recorder/cmake/spe_helpers.cmake;9;add_test;/work/wt/recorder/tests/recorder/CMakeLists.txt;2;spe_add_unit_test;/work/wt/recorder/tests/recorder/CMakeLists.txt;0;")
add_test(test_ring "/work/wt/recorder/build-asan/tests/recorder/test_ring")
set_tests_properties(test_ring PROPERTIES  LABELS "unit;" SKIP_RETURN_CODE "77" _BACKTRACE_TRIPLES "/work/wt/recorder/cmake/spe_helpers.cmake;9;add_test;/work/wt/recorder/tests/recorder/CMakeLists.txt;4;spe_add_unit_test;/work/wt/recorder/tests/recorder/CMakeLists.txt;0;")
add_test(test_replay "/work/wt/recorder/build-asan/tests/recorder/test_replay")
set_tests_properties(test_replay PROPERTIES  LABELS "unit;" SKIP_RETURN_CODE "77" _BACKTRACE_TRIPLES "/work/wt/recorder/cmake/spe_helpers.cmake;9;add_test;/work/wt/recorder/tests/recorder/CMakeLists.txt;5;spe_add_unit_test;/work/wt/recorder/tests/recorder/CMakeLists.txt;0;")
