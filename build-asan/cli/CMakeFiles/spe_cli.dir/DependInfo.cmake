
# Consider dependencies only in project.
set(CMAKE_DEPENDS_IN_PROJECT_ONLY OFF)

# The set of languages for which implicit dependencies are needed:
set(CMAKE_DEPENDS_LANGUAGES
  )

# The set of dependency files which are needed:
set(CMAKE_DEPENDS_DEPENDENCY_FILES
  "/work/wt/recorder/cli/cmd_replay.c" "cli/CMakeFiles/spe_cli.dir/cmd_replay.c.o" "gcc" "cli/CMakeFiles/spe_cli.dir/cmd_replay.c.o.d"
  "/work/wt/recorder/cli/common/cli_util.c" "cli/CMakeFiles/spe_cli.dir/common/cli_util.c.o" "gcc" "cli/CMakeFiles/spe_cli.dir/common/cli_util.c.o.d"
  "/work/wt/recorder/cli/common/record_run.c" "cli/CMakeFiles/spe_cli.dir/common/record_run.c.o" "gcc" "cli/CMakeFiles/spe_cli.dir/common/record_run.c.o.d"
  )

# Targets to which this target links.
set(CMAKE_TARGET_LINKED_INFO_FILES
  "/work/wt/recorder/build-asan/decoder/CMakeFiles/spe_decoder.dir/DependInfo.cmake"
  "/work/wt/recorder/build-asan/recorder/CMakeFiles/spe_recorder.dir/DependInfo.cmake"
  )

# Fortran module output directory.
set(CMAKE_Fortran_TARGET_MODULE_DIR "")
