"""pipkeeper's board firmware: screens, button flows, storage, board support.

Runs on MicroPython 1.22+ (the RP2040 boards and the unix port). Modules are
small and imported lazily: a press imports only what it needs.
"""
