
# Consider dependencies only in project.
set(CMAKE_DEPENDS_IN_PROJECT_ONLY OFF)

# The set of languages for which implicit dependencies are needed:
set(CMAKE_DEPENDS_LANGUAGES
  )

# The set of dependency files which are needed:
set(CMAKE_DEPENDS_DEPENDENCY_FILES
  "/work/wt/recorder/recorder/src/kernel_records.c" "recorder/CMakeFiles/spe_recorder.dir/src/kernel_records.c.o" "gcc" "recorder/CMakeFiles/spe_recorder.dir/src/kernel_records.c.o.d"
  "/work/wt/recorder/recorder/src/live.c" "recorder/CMakeFiles/spe_recorder.dir/src/live.c.o" "gcc" "recorder/CMakeFiles/spe_recorder.dir/src/live.c.o.d"
  "/work/wt/recorder/recorder/src/live_pmu.c" "recorder/CMakeFiles/spe_recorder.dir/src/live_pmu.c.o" "gcc" "recorder/CMakeFiles/spe_recorder.dir/src/live_pmu.c.o.d"
  "/work/wt/recorder/recorder/src/rec_output.c" "recorder/CMakeFiles/spe_recorder.dir/src/rec_output.c.o" "gcc" "recorder/CMakeFiles/spe_recorder.dir/src/rec_output.c.o.d"
  "/work/wt/recorder/recorder/src/replay.c" "recorder/CMakeFiles/spe_recorder.dir/src/replay.c.o" "gcc" "recorder/CMakeFiles/spe_recorder.dir/src/replay.c.o.d"
  "/work/wt/recorder/recorder/src/replay_manifest.c" "recorder/CMakeFiles/spe_recorder.dir/src/replay_manifest.c.o" "gcc" "recorder/CMakeFiles/spe_recorder.dir/src/replay_manifest.c.o.d"
  "/work/wt/recorder/recorder/src/ring.c" "recorder/CMakeFiles/spe_recorder.dir/src/ring.c.o" "gcc" "recorder/CMakeFiles/spe_recorder.dir/src/ring.c.o.d"
  "/work/wt/recorder/recorder/src/ring_sim.c" "recorder/CMakeFiles/spe_recorder.dir/src/ring_sim.c.o" "gcc" "recorder/CMakeFiles/spe_recorder.dir/src/ring_sim.c.o.d"
  "/work/wt/recorder/recorder/src/session.c" "recorder/CMakeFiles/spe_recorder.dir/src/session.c.o" "gcc" "recorder/CMakeFiles/spe_recorder.dir/src/session.c.o.d"
  )

# Targets to which this target links.
set(CMAKE_TARGET_LINKED_INFO_FILES
  "/work/wt/recorder/build-asan/decoder/CMakeFiles/spe_decoder.dir/DependInfo.cmake"
  )

# Fortran module output directory.
set(CMAKE_Fortran_TARGET_MODULE_DIR "")
