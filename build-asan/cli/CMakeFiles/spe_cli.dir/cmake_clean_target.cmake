file(REMOVE_RECURSE
  "libspe_cli.a"
)
