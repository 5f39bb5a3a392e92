# Empty dependencies file for spe_recorder.
# This may be replaced when dependencies are built.
