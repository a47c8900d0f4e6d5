"""Raspberry Pi Pico + Pimoroni Pico Inky Pack (2.9" 296x128 UC8151, buttons A B C).

The pack has only three buttons, so UP and DOWN are two extra push buttons
wired from GP15 and GP11 to ground: the same GPIOs as on the Badger, and the
same active-low, pull-up wiring as the pack's own buttons. The Pico has no
power latch: on battery the firmware must sleep between presses, and a power
switch turns the scorer off between games (see hardware/README.md).
"""

_DRV = "pimoroni/pimoroni-pico drivers/uc8151/uc8151.hpp (UC8151 defaults)"
_DRVC = "pimoroni/pimoroni-pico drivers/uc8151/uc8151.cpp"
_PG = "pimoroni/pimoroni-pico micropython/modules/picographics/picographics.cpp (DISPLAY_INKY_PACK bus)"
_COM = "pimoroni/pimoroni-pico common/pimoroni_common.hpp"
_BT = "pimoroni/pimoroni-pico micropython/examples/pico_inky/button_test.py"
_BTN = "pimoroni/pimoroni-pico micropython/modules_py/pimoroni.py Button (invert=True: PULL_UP)"
_OURS = "ours: a free GPIO, button to GND, matches the Badger's numbering"

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

SOURCES = dict(PICO_SOURCES)
SOURCES.update({
    "DISPLAY_CONTROLLER": _PG + " constructs UC8151 296x128",
    "SPI_ID": _COM + " PIMORONI_SPI_DEFAULT_INSTANCE spi0",
    "SPI_SCK": _COM + " SPI_DEFAULT_SCK = 18",
    "SPI_MOSI": _COM + " SPI_DEFAULT_MOSI = 19",
    "SPI_BAUD": _DRVC + " spi_init(spi, 12'000'000)",
    "PIN_CS": _COM + " SPI_BG_FRONT_CS = 17; " + _PG,
    "PIN_DC": _PG + " dc = 20",
    "PIN_RST": _DRV + " reset=21",
    "PIN_BUSY": _DRV + " busy=26",
    "BUSY_LEVEL": _DRVC + " is_busy() returns !gpio_get(BUSY)",
    "PANEL_UPDATE_MS": "pimoroni/badger2040 modules/badger2040/badger2040.py delay_ms table (same panel)",
    "PANEL_FULL_UPDATE_MS": "pimoroni/badger2040 modules/badger2040/badger2040.py delay_ms table (same panel)",
    "BUTTON_A": _BT + " Button(12); " + _BTN,
    "BUTTON_B": _BT + " Button(13); " + _BTN,
    "BUTTON_C": _BT + " Button(14); " + _BTN,
    "BUTTON_UP": _OURS + " (GP15, Pico pin 20)",
    "BUTTON_DOWN": _OURS + " (GP11, Pico pin 15)",
})
