file(REMOVE_RECURSE
  "CMakeFiles/spe_testlib.dir/lib/check.c.o"
  "CMakeFiles/spe_testlib.dir/lib/check.c.o.d"
  "libspe_testlib.a"
  "libspe_testlib.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/spe_testlib.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
