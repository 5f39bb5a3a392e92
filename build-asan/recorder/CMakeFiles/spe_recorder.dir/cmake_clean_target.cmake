file(REMOVE_RECURSE
  "libspe_recorder.a"
)
