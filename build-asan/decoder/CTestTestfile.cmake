# CMake generated Testfile for 
# Source directory: /work/wt/recorder/decoder
# Build directory: /work/wt/recorder/build-asan/decoder
# 
# This file includes the relevant testing commands required for 
# testing this directory and lists subdirectories to be tested as well.
