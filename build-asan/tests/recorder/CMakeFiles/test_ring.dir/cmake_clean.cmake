file(REMOVE_RECURSE
  "CMakeFiles/test_ring.dir/test_ring.c.o"
  "CMakeFiles/test_ring.dir/test_ring.c.o.d"
  "test_ring"
  "test_ring.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_ring.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
