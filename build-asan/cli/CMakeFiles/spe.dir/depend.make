# Empty dependencies file for spe.
# This may be replaced when dependencies are built.
