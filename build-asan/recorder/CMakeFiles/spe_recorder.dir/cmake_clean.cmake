file(REMOVE_RECURSE
  "CMakeFiles/spe_recorder.dir/src/kernel_records.c.o"
  "CMakeFiles/spe_recorder.dir/src/kernel_records.c.o.d"
  "CMakeFiles/spe_recorder.dir/src/live.c.o"
  "CMakeFiles/spe_recorder.dir/src/live.c.o.d"
  "CMakeFiles/spe_recorder.dir/src/live_pmu.c.o"
  "CMakeFiles/spe_recorder.dir/src/live_pmu.c.o.d"
  "CMakeFiles/spe_recorder.dir/src/rec_output.c.o"
  "CMakeFiles/spe_recorder.dir/src/rec_output.c.o.d"
  "CMakeFiles/spe_recorder.dir/src/replay.c.o"
  "CMakeFiles/spe_recorder.dir/src/replay.c.o.d"
  "CMakeFiles/spe_recorder.dir/src/replay_manifest.c.o"
  "CMakeFiles/spe_recorder.dir/src/replay_manifest.c.o.d"
  "CMakeFiles/spe_recorder.dir/src/ring.c.o"
  "CMakeFiles/spe_recorder.dir/src/ring.c.o.d"
  "CMakeFiles/spe_recorder.dir/src/ring_sim.c.o"
  "CMakeFiles/spe_recorder.dir/src/ring_sim.c.o.d"
  "CMakeFiles/spe_recorder.dir/src/session.c.o"
  "CMakeFiles/spe_recorder.dir/src/session.c.o.d"
  "libspe_recorder.a"
  "libspe_recorder.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/spe_recorder.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
