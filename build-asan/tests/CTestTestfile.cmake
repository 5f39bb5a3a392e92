# CMake generated Testfile for 
# Source directory: /work/wt/recorder/tests
# Build directory: /work/wt/recorder/build-asan/tests
# 
# This file includes the relevant testing commands required for 
# testing this directory and lists subdirectories to be tested as well.
subdirs("recorder")
