# Empty dependencies file for test_replay_manifest.
# This may be replaced when dependencies are built.
