"""The citations of hardware/profiles/pico_inky_pack.py: where each of its values comes
from (``SOURCES``, checked by hardware/contract.py). Kept out of the profile,
which the board imports on every press: there these strings cost some 7 KB of
heap and their names. The profile gives them as its ``SOURCES`` on the host."""

from hardware.citations._pico import PICO_SOURCES

_DRV = "pimoroni/pimoroni-pico drivers/uc8151/uc8151.hpp (UC8151 defaults)"
_DRVC = "pimoroni/pimoroni-pico drivers/uc8151/uc8151.cpp"
_PG = "pimoroni/pimoroni-pico micropython/modules/picographics/picographics.cpp (DISPLAY_INKY_PACK bus)"
_COM = "pimoroni/pimoroni-pico common/pimoroni_common.hpp"
_BT = "pimoroni/pimoroni-pico micropython/examples/pico_inky/button_test.py"
_BTN = "pimoroni/pimoroni-pico micropython/modules_py/pimoroni.py Button (invert=True: PULL_UP)"
_OURS = "ours: a free GPIO, button to GND, matches the Badger's numbering"

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
