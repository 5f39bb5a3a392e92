file(REMOVE_RECURSE
  "CMakeFiles/test_replay_manifest.dir/test_replay_manifest.c.o"
  "CMakeFiles/test_replay_manifest.dir/test_replay_manifest.c.o.d"
  "test_replay_manifest"
  "test_replay_manifest.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_replay_manifest.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
