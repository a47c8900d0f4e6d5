"""Raspberry Pi Pico + Waveshare Pico-ePaper-2.9 (296x128, SSD1680-class controller).

The module uses SPI1 (GP8-GP13) and has no buttons, so all five are push
buttons from free GPIOs GP2-GP6 to ground (internal pull-ups, active low),
on one edge of the Pico next to two ground pins. The SSD1680 differs from the
Badger's UC8151 in what its driver must do: see hardware/README.md. No power
latch: as with the Inky Pack build, the firmware sleeps between presses and a
power switch turns the scorer off between games.
"""

from hardware.profiles._pico import *  # noqa: F401,F403  (the Pico's own pins)

NAME = "pico_epaper29"

DISPLAY_CONTROLLER = "SSD1680"
SPI_ID = 1
SPI_SCK = 10
SPI_MOSI = 11
SPI_BAUD = 4000000      # Waveshare's own demo speed; the controller allows more
PIN_CS = 9
PIN_DC = 8
PIN_RST = 12
PIN_BUSY = 13
BUSY_LEVEL = 1          # SSD1680 holds BUSY high while it works
PANEL_UPDATE_MS = 300   # partial refresh
PANEL_FULL_UPDATE_MS = 2000

BUTTONS = (
    ("A", 2, "up", False),
    ("B", 3, "up", False),
    ("C", 4, "up", False),
    ("UP", 5, "up", False),
    ("DOWN", 6, "up", False),
)

WIRED_BUTTONS = ("A", "B", "C", "UP", "DOWN")
