"""Raspberry Pi Pico + Waveshare Pico-ePaper-2.9 (296x128, SSD1680-class controller).

The module uses SPI1 (GP8-GP13) and has no buttons, so all five are push
buttons from free GPIOs GP2-GP6 to ground (internal pull-ups, active low),
on one edge of the Pico next to two ground pins. The SSD1680 differs from the
Badger's UC8151 in what its driver must do: see hardware/README.md. No power
latch: as with the Inky Pack build, the firmware sleeps between presses and a
power switch turns the scorer off between games.
"""

_WS = "waveshareteam/Pico_ePaper_Code python/Pico_ePaper-2.9.py"
_WSR = "waveshareteam/Pico_ePaper_Code python/ReadmeEN.txt (pin connection)"
_SPEC = "Waveshare wiki Pico_e-Paper_2.9 spec (partial 0.3 s, full 2 s)"
_OURS = "ours: a free GPIO on the Pico's left edge, button to GND (pins 3/8)"

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

SOURCES = dict(PICO_SOURCES)
SOURCES.update({
    "DISPLAY_CONTROLLER": _WS + " (SSD1680 command set: 0x12 SWRESET, 0x24 RAM, 153-byte LUT)",
    "SPI_ID": _WS + " SPI(1)",
    "SPI_SCK": _WSR + " CLK -> 10",
    "SPI_MOSI": _WSR + " DIN -> 11",
    "SPI_BAUD": _WS + " spi.init(baudrate=4000_000)",
    "PIN_CS": _WS + " CS_PIN = 9",
    "PIN_DC": _WS + " DC_PIN = 8",
    "PIN_RST": _WS + " RST_PIN = 12",
    "PIN_BUSY": _WS + " BUSY_PIN = 13",
    "BUSY_LEVEL": _WS + " ReadBusy(): 0 idle, 1 busy",
    "PANEL_UPDATE_MS": _SPEC,
    "PANEL_FULL_UPDATE_MS": _SPEC,
    "BUTTON_A": _OURS + " (GP2, Pico pin 4)",
    "BUTTON_B": _OURS + " (GP3, Pico pin 5)",
    "BUTTON_C": _OURS + " (GP4, Pico pin 6)",
    "BUTTON_UP": _OURS + " (GP5, Pico pin 7)",
    "BUTTON_DOWN": _OURS + " (GP6, Pico pin 9)",
})
