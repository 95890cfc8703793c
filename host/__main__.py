"""``python -m lawmaster.host`` runs the ``lawmaster`` command."""

from lawmaster.host.cli import main

main()
