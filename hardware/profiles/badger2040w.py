"""Pimoroni Badger 2040 W: the Badger 2040 layout on a Pico W (RP2040 + CYW43439),
plus a PCF85063A real-time clock.

Everything the Badger 2040 has is taken from its profile (same panel, buttons
and power latch); only what moves is set here: the LED is on GPIO22 (GPIO25
is the wireless chip's select), the wireless chip owns GPIO23/24/25/29, so
there is no VBUS-detect GPIO and the VSYS divider on GPIO29 can only be read
while the wireless driver is idle. The RTC's interrupt (GPIO8) can also
switch the board on.
"""

from hardware.profiles.badger2040 import *  # noqa: F401,F403  (what the 2040 W shares)
from hardware.profiles import badger2040 as _base

_PYW = "pimoroni/badger2040 firmware/PIMORONI_BADGER2040W/lib/badger2040.py"
_CSV = "pimoroni/badger2040 boards/badger2040w/pins.csv"
_HPPW = "pimoroni/pimoroni-pico libraries/badger2040w/badger2040w.hpp (enum pin)"
_PICOW = "raspberrypi/pico-sdk src/boards/include/boards/pico_w.h"

NAME = "badger2040w"
MCU_BOARD = "badger2040w"

PIN_VBAT_SENSE = None   # GPIO29 doubles as the CYW43 SPI clock: not used
VBAT_DIVIDER = 0.0
PIN_VREF_EN = None
PIN_VREF_1V2 = None
VREF_VOLTS = None
PIN_VBUS_DETECT = None  # VBUS sense is CYW43 WL_GPIO2, not an RP2040 GPIO
PIN_LED = 22

HAS_RTC = True
RTC_I2C_ID = 0
PIN_RTC_SDA = 4
PIN_RTC_SCL = 5
PIN_RTC_ALARM = 8       # PCF85063A /INT, also a power-on source
RTC_ADDR = 0x51

# The Pico W's wireless chip: WL_REG_ON, WL_DATA, WL_CS, WL_CLK.
RESERVED_PINS = (23, 24, 25, 29)

# The 2040's citations, with the W's own sources where its files say the same
# or something else (pin names from the W's pins.csv and header).
SOURCES = dict(_base.SOURCES)
for _k in ("PIN_VBAT_SENSE", "VBAT_DIVIDER", "PIN_VREF_EN", "PIN_VREF_1V2", "VREF_VOLTS"):
    del SOURCES[_k]
SOURCES.update({
    "DISPLAY_CONTROLLER": _HPPW + " (uses UC8151)",
    "SPI_ID": _HPPW + " CS/CLK/MOSI on spi0 defaults",
    "SPI_SCK": _HPPW + " CLK = 18",
    "SPI_MOSI": _HPPW + " MOSI = 19",
    "PIN_CS": _HPPW + " CS = 17",
    "PIN_DC": _HPPW + " DC = 20",
    "PIN_RST": _HPPW + " RESET = 21",
    "PIN_BUSY": _CSV + " BUSY,GPIO26",
    "PANEL_UPDATE_MS": _PYW + " Badger2040.update delay_ms table",
    "PANEL_FULL_UPDATE_MS": _PYW + " Badger2040.update delay_ms table",
    "BUTTON_A": _CSV + " A,GPIO12; pull-down: " + _PYW,
    "BUTTON_B": _CSV + " B,GPIO13; pull-down: " + _PYW,
    "BUTTON_C": _CSV + " C,GPIO14; pull-down: " + _PYW,
    "BUTTON_UP": _CSV + " UP,GPIO15; pull-down: " + _PYW,
    "BUTTON_DOWN": _CSV + " DOWN,GPIO11; pull-down: " + _PYW,
    "PIN_POWER_LATCH": _CSV + " EN_3V3,GPIO10; " + _PYW + " turn_off()",
    "PIN_VBAT_SENSE": _PICOW + " CYW43_USES_VSYS_PIN / WL_CLOCK 29; "
    "Pimoroni's own firmware/PIMORONI_BADGER2040W/lib/badger_os.py returns 0 for the battery",
    "PIN_VBUS_DETECT": _PICOW + " CYW43_WL_GPIO_VBUS_PIN 2",
    "PIN_LED": _CSV + " LED,GPIO22",
    "HAS_RTC": _PYW + " pcf85063a.PCF85063A(machine.I2C(0))",
    "RTC_I2C_ID": _PYW + " machine.I2C(0)",
    "PIN_RTC_SDA": _PICOW + " PICO_DEFAULT_I2C_SDA_PIN 4 (I2C(0) default)",
    "PIN_RTC_SCL": _PICOW + " PICO_DEFAULT_I2C_SCL_PIN 5 (I2C(0) default)",
    "PIN_RTC_ALARM": _CSV + " ALARM,GPIO8; " + _PYW + " RTC_ALARM = 8",
    "RTC_ADDR": _PYW + " i2c.writeto_mem(0x51, ...)",
    "RESERVED_PINS": _PICOW + " CYW43_DEFAULT_PIN_WL_* 23, 24, 25, 29",
})
del _k
