# CMake generated Testfile for 
# Source directory: /work/wt/recorder/recorder
# Build directory: /work/wt/recorder/build-asan/recorder
# 
# This file includes the relevant testing commands required for 
# testing this directory and lists subdirectories to be tested as well.
