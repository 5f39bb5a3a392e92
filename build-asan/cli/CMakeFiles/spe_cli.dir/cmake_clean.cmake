file(REMOVE_RECURSE
  "CMakeFiles/spe_cli.dir/cmd_replay.c.o"
  "CMakeFiles/spe_cli.dir/cmd_replay.c.o.d"
  "CMakeFiles/spe_cli.dir/common/cli_util.c.o"
  "CMakeFiles/spe_cli.dir/common/cli_util.c.o.d"
  "CMakeFiles/spe_cli.dir/common/record_run.c.o"
  "CMakeFiles/spe_cli.dir/common/record_run.c.o.d"
  "libspe_cli.a"
  "libspe_cli.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/spe_cli.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
