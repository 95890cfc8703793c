"""One module per ``lawmaster`` subcommand, each exposing ``command``."""
