"""Raspberry Pi Pico + Pimoroni Pico Inky Pack (2.9" 296x128 UC8151, buttons A B C).

The pack has only three buttons, so UP and DOWN are two extra push buttons
wired from GP15 and GP11 to ground: the same GPIOs as on the Badger, and the
same active-low, pull-up wiring as the pack's own buttons. The Pico has no
power latch: on battery the firmware must sleep between presses, and a power
switch turns the scorer off between games (see hardware/README.md).
"""

from hardware.profiles._pico import *  # noqa: F401,F403  (the Pico's own pins)

NAME = "pico_inky_pack"

DISPLAY_CONTROLLER = "UC8151"
SPI_ID = 0
SPI_SCK = 18
SPI_MOSI = 19
SPI_BAUD = 12000000
PIN_CS = 17
PIN_DC = 20
PIN_RST = 21
PIN_BUSY = 26
BUSY_LEVEL = 0
PANEL_UPDATE_MS = 900
PANEL_FULL_UPDATE_MS = 4700

BUTTONS = (
    ("A", 12, "up", False),
    ("B", 13, "up", False),
    ("C", 14, "up", False),
    ("UP", 15, "up", False),
    ("DOWN", 11, "up", False),
)

# Buttons the builder adds by hand; A B C are on the pack.
WIRED_BUTTONS = ("UP", "DOWN")
