cli/CMakeFiles/spe-replay.dir/main_replay.c.o: \
 /work/wt/recorder/build-asan/cli/main_replay.c \
 /usr/include/stdc-predef.h
