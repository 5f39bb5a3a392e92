file(REMOVE_RECURSE
  "CMakeFiles/spe_decoder.dir/src/describe.c.o"
  "CMakeFiles/spe_decoder.dir/src/describe.c.o.d"
  "CMakeFiles/spe_decoder.dir/src/dialect.c.o"
  "CMakeFiles/spe_decoder.dir/src/dialect.c.o.d"
  "CMakeFiles/spe_decoder.dir/src/dump.c.o"
  "CMakeFiles/spe_decoder.dir/src/dump.c.o.d"
  "CMakeFiles/spe_decoder.dir/src/encoder.c.o"
  "CMakeFiles/spe_decoder.dir/src/encoder.c.o.d"
  "CMakeFiles/spe_decoder.dir/src/error.c.o"
  "CMakeFiles/spe_decoder.dir/src/error.c.o.d"
  "CMakeFiles/spe_decoder.dir/src/facts_lookup.c.o"
  "CMakeFiles/spe_decoder.dir/src/facts_lookup.c.o.d"
  "CMakeFiles/spe_decoder.dir/src/op_type.c.o"
  "CMakeFiles/spe_decoder.dir/src/op_type.c.o.d"
  "CMakeFiles/spe_decoder.dir/src/packet.c.o"
  "CMakeFiles/spe_decoder.dir/src/packet.c.o.d"
  "CMakeFiles/spe_decoder.dir/src/perfdata_auxqueue.c.o"
  "CMakeFiles/spe_decoder.dir/src/perfdata_auxqueue.c.o.d"
  "CMakeFiles/spe_decoder.dir/src/perfdata_events.c.o"
  "CMakeFiles/spe_decoder.dir/src/perfdata_events.c.o.d"
  "CMakeFiles/spe_decoder.dir/src/perfdata_features.c.o"
  "CMakeFiles/spe_decoder.dir/src/perfdata_features.c.o.d"
  "CMakeFiles/spe_decoder.dir/src/perfdata_reader.c.o"
  "CMakeFiles/spe_decoder.dir/src/perfdata_reader.c.o.d"
  "CMakeFiles/spe_decoder.dir/src/perfdata_source.c.o"
  "CMakeFiles/spe_decoder.dir/src/perfdata_source.c.o.d"
  "CMakeFiles/spe_decoder.dir/src/perfdata_writer.c.o"
  "CMakeFiles/spe_decoder.dir/src/perfdata_writer.c.o.d"
  "CMakeFiles/spe_decoder.dir/src/record.c.o"
  "CMakeFiles/spe_decoder.dir/src/record.c.o.d"
  "libspe_decoder.a"
  "libspe_decoder.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/spe_decoder.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
