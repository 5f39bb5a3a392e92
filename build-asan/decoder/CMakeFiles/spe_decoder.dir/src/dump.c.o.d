decoder/CMakeFiles/spe_decoder.dir/src/dump.c.o: \
 /work/wt/recorder/decoder/src/dump.c /usr/include/stdc-predef.h \
 /work/wt/recorder/decoder/src/describe_internal.h \
 /work/wt/recorder/decoder/src/dialect.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/stdint.h /usr/include/stdint.h \
 /usr/include/x86_64-linux-gnu/bits/libc-header-start.h \
 /usr/include/features.h /usr/include/features-time64.h \
 /usr/include/x86_64-linux-gnu/bits/wordsize.h \
 /usr/include/x86_64-linux-gnu/bits/timesize.h \
 /usr/include/x86_64-linux-gnu/sys/cdefs.h \
 /usr/include/x86_64-linux-gnu/bits/long-double.h \
 /usr/include/x86_64-linux-gnu/gnu/stubs.h \
 /usr/include/x86_64-linux-gnu/gnu/stubs-64.h \
 /usr/include/x86_64-linux-gnu/bits/types.h \
 /usr/include/x86_64-linux-gnu/bits/typesizes.h \
 /usr/include/x86_64-linux-gnu/bits/time64.h \
 /usr/include/x86_64-linux-gnu/bits/wchar.h \
 /usr/include/x86_64-linux-gnu/bits/stdint-intn.h \
 /usr/include/x86_64-linux-gnu/bits/stdint-uintn.h \
 /work/wt/recorder/decoder/include/spe/spe.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/stddef.h \
 /work/wt/recorder/decoder/include/spe/facts.h \
 /work/wt/recorder/decoder/include/spe/packet.h \
 /work/wt/recorder/decoder/include/spe/record.h \
 /work/wt/recorder/decoder/include/spe/perfdata.h \
 /work/wt/recorder/decoder/include/spe/encoder.h \
 /work/wt/recorder/decoder/src/text_out.h /usr/include/string.h \
 /usr/include/x86_64-linux-gnu/bits/types/locale_t.h \
 /usr/include/x86_64-linux-gnu/bits/types/__locale_t.h \
 /usr/include/strings.h /work/wt/recorder/decoder/src/packet_internal.h
