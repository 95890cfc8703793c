"""The table's electronics as code: one source for the schematic, the BOM and the wiring.

* :mod:`.datasheet`: every figure the design uses, each a datasheet value or a
  stated assumption with its source.
* :mod:`.parts`: the parts, defined here with their pins (SKiDL templates, no
  KiCad library needed) and an example order number.
* :mod:`.tree`: a board's multiplexer tree, sized by its sensor map.
* :mod:`.circuits`: the scanner of each board and the Pi's side (panel, PN532).
* :mod:`.budget`: supply, analog settling and heat, computed from the figures.
* :mod:`.erc`: SKiDL's electrical rules check, counted.
* :mod:`.generate`: rewrites ``hardware/BOM.md``, ``wiring.md``,
  ``hardware/schematic/`` and the figures of ``hardware/BUILD.md``
  (``lawmaster hardware generate``).
"""
