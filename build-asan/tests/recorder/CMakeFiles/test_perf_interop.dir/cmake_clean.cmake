file(REMOVE_RECURSE
  "CMakeFiles/test_perf_interop.dir/test_perf_interop.c.o"
  "CMakeFiles/test_perf_interop.dir/test_perf_interop.c.o.d"
  "test_perf_interop"
  "test_perf_interop.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_perf_interop.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
