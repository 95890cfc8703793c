"""``python -m lawmaster.hardware.mechanical``: write the drawings and ``parts.json``."""

from lawmaster.hardware.mechanical import main

raise SystemExit(main())
