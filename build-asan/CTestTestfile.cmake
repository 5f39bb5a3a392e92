# CMake generated Testfile for 
# Source directory: /work/wt/recorder
# Build directory: /work/wt/recorder/build-asan
# 
# This file includes the relevant testing commands required for 
# testing this directory and lists subdirectories to be tested as well.
subdirs("decoder")
subdirs("recorder")
subdirs("cli")
subdirs("tests")
