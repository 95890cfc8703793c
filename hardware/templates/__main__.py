"""``python -m lawmaster.hardware.templates``: write the board templates."""

from lawmaster.hardware.templates import main

raise SystemExit(main())
