# Empty compiler generated dependencies file for test_live_sideband.
# This may be replaced when dependencies are built.
