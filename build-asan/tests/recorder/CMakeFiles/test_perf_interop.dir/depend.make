# Empty dependencies file for test_perf_interop.
# This may be replaced when dependencies are built.
