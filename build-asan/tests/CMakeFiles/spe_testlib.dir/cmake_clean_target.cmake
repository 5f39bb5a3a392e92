file(REMOVE_RECURSE
  "libspe_testlib.a"
)
