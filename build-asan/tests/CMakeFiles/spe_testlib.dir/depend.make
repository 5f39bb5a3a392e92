# Empty dependencies file for spe_testlib.
# This may be replaced when dependencies are built.
