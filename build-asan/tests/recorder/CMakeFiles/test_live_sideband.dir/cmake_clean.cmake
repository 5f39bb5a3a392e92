file(REMOVE_RECURSE
  "CMakeFiles/test_live_sideband.dir/test_live_sideband.c.o"
  "CMakeFiles/test_live_sideband.dir/test_live_sideband.c.o.d"
  "test_live_sideband"
  "test_live_sideband.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_live_sideband.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
