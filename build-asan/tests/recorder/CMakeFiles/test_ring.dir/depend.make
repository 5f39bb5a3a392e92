# Empty dependencies file for test_ring.
# This may be replaced when dependencies are built.
