# Empty dependencies file for spe_cli.
# This may be replaced when dependencies are built.
