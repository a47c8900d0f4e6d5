"""The citations of hardware/profiles/pico_epaper29.py: where each of its values comes
from (``SOURCES``, checked by hardware/contract.py). Kept out of the profile,
which the board imports on every press: there these strings cost some 7 KB of
heap and their names. The profile gives them as its ``SOURCES`` on the host."""

from hardware.citations._pico import PICO_SOURCES

_WS = "waveshareteam/Pico_ePaper_Code python/Pico_ePaper-2.9.py"
_WSR = "waveshareteam/Pico_ePaper_Code python/ReadmeEN.txt (pin connection)"
_SPEC = "Waveshare wiki Pico_e-Paper_2.9 spec (partial 0.3 s, full 2 s)"
_OURS = "ours: a free GPIO on the Pico's left edge, button to GND (pins 3/8)"

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
