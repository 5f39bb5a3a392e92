# Empty dependencies file for spe-replay.
# This may be replaced when dependencies are built.
