file(REMOVE_RECURSE
  "CMakeFiles/spe-replay.dir/main_replay.c.o"
  "CMakeFiles/spe-replay.dir/main_replay.c.o.d"
  "spe-replay"
  "spe-replay.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/spe-replay.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
