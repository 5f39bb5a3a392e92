# Empty dependencies file for spe_decoder.
# This may be replaced when dependencies are built.
