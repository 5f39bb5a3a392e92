
# Consider dependencies only in project.
set(CMAKE_DEPENDS_IN_PROJECT_ONLY OFF)

# The set of languages for which implicit dependencies are needed:
set(CMAKE_DEPENDS_LANGUAGES
  )

# The set of dependency files which are needed:
set(CMAKE_DEPENDS_DEPENDENCY_FILES
  "/work/wt/recorder/decoder/src/describe.c" "decoder/CMakeFiles/spe_decoder.dir/src/describe.c.o" "gcc" "decoder/CMakeFiles/spe_decoder.dir/src/describe.c.o.d"
  "/work/wt/recorder/decoder/src/dialect.c" "decoder/CMakeFiles/spe_decoder.dir/src/dialect.c.o" "gcc" "decoder/CMakeFiles/spe_decoder.dir/src/dialect.c.o.d"
  "/work/wt/recorder/decoder/src/dump.c" "decoder/CMakeFiles/spe_decoder.dir/src/dump.c.o" "gcc" "decoder/CMakeFiles/spe_decoder.dir/src/dump.c.o.d"
  "/work/wt/recorder/decoder/src/encoder.c" "decoder/CMakeFiles/spe_decoder.dir/src/encoder.c.o" "gcc" "decoder/CMakeFiles/spe_decoder.dir/src/encoder.c.o.d"
  "/work/wt/recorder/decoder/src/error.c" "decoder/CMakeFiles/spe_decoder.dir/src/error.c.o" "gcc" "decoder/CMakeFiles/spe_decoder.dir/src/error.c.o.d"
  "/work/wt/recorder/decoder/src/facts_lookup.c" "decoder/CMakeFiles/spe_decoder.dir/src/facts_lookup.c.o" "gcc" "decoder/CMakeFiles/spe_decoder.dir/src/facts_lookup.c.o.d"
  "/work/wt/recorder/decoder/src/op_type.c" "decoder/CMakeFiles/spe_decoder.dir/src/op_type.c.o" "gcc" "decoder/CMakeFiles/spe_decoder.dir/src/op_type.c.o.d"
  "/work/wt/recorder/decoder/src/packet.c" "decoder/CMakeFiles/spe_decoder.dir/src/packet.c.o" "gcc" "decoder/CMakeFiles/spe_decoder.dir/src/packet.c.o.d"
  "/work/wt/recorder/decoder/src/perfdata_auxqueue.c" "decoder/CMakeFiles/spe_decoder.dir/src/perfdata_auxqueue.c.o" "gcc" "decoder/CMakeFiles/spe_decoder.dir/src/perfdata_auxqueue.c.o.d"
  "/work/wt/recorder/decoder/src/perfdata_events.c" "decoder/CMakeFiles/spe_decoder.dir/src/perfdata_events.c.o" "gcc" "decoder/CMakeFiles/spe_decoder.dir/src/perfdata_events.c.o.d"
  "/work/wt/recorder/decoder/src/perfdata_features.c" "decoder/CMakeFiles/spe_decoder.dir/src/perfdata_features.c.o" "gcc" "decoder/CMakeFiles/spe_decoder.dir/src/perfdata_features.c.o.d"
  "/work/wt/recorder/decoder/src/perfdata_reader.c" "decoder/CMakeFiles/spe_decoder.dir/src/perfdata_reader.c.o" "gcc" "decoder/CMakeFiles/spe_decoder.dir/src/perfdata_reader.c.o.d"
  "/work/wt/recorder/decoder/src/perfdata_source.c" "decoder/CMakeFiles/spe_decoder.dir/src/perfdata_source.c.o" "gcc" "decoder/CMakeFiles/spe_decoder.dir/src/perfdata_source.c.o.d"
  "/work/wt/recorder/decoder/src/perfdata_writer.c" "decoder/CMakeFiles/spe_decoder.dir/src/perfdata_writer.c.o" "gcc" "decoder/CMakeFiles/spe_decoder.dir/src/perfdata_writer.c.o.d"
  "/work/wt/recorder/decoder/src/record.c" "decoder/CMakeFiles/spe_decoder.dir/src/record.c.o" "gcc" "decoder/CMakeFiles/spe_decoder.dir/src/record.c.o.d"
  )

# Targets to which this target links.
set(CMAKE_TARGET_LINKED_INFO_FILES
  )

# Fortran module output directory.
set(CMAKE_Fortran_TARGET_MODULE_DIR "")
