"""What runs on the Pi, stage by stage in the order data flows.

``link`` → ``sensing`` → ``tracker`` → ``referee`` → ``journal`` → ``web``, with
``nfc`` and ``panel`` feeding the referee, ``sim`` standing in for the hardware
and ``cli`` the command line.
"""
