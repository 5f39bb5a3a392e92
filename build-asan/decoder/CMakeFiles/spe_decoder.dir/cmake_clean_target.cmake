file(REMOVE_RECURSE
  "libspe_decoder.a"
)
