file(REMOVE_RECURSE
  "CMakeFiles/spe.dir/spe.c.o"
  "CMakeFiles/spe.dir/spe.c.o.d"
  "spe"
  "spe.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/spe.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
