
# Consider dependencies only in project.
set(CMAKE_DEPENDS_IN_PROJECT_ONLY OFF)

# The set of languages for which implicit dependencies are needed:
set(CMAKE_DEPENDS_LANGUAGES
  )

# The set of dependency files which are needed:
set(CMAKE_DEPENDS_DEPENDENCY_FILES
  "/work/wt/recorder/tests/recorder/test_replay_manifest.c" "tests/recorder/CMakeFiles/test_replay_manifest.dir/test_replay_manifest.c.o" "gcc" "tests/recorder/CMakeFiles/test_replay_manifest.dir/test_replay_manifest.c.o.d"
  )

# Targets to which this target links.
set(CMAKE_TARGET_LINKED_INFO_FILES
  "/work/wt/recorder/build-asan/recorder/CMakeFiles/spe_recorder.dir/DependInfo.cmake"
  "/work/wt/recorder/build-asan/tests/CMakeFiles/spe_testlib.dir/DependInfo.cmake"
  "/work/wt/recorder/build-asan/decoder/CMakeFiles/spe_decoder.dir/DependInfo.cmake"
  )

# Fortran module output directory.
set(CMAKE_Fortran_TARGET_MODULE_DIR "")
