"""The citations of hardware/profiles/badger2040w.py: where each of its values comes
from (``SOURCES``, checked by hardware/contract.py). Kept out of the profile,
which the board imports on every press: there these strings cost some 7 KB of
heap and their names. The profile gives them as its ``SOURCES`` on the host."""

from hardware.citations import badger2040 as _base

_PYW = "pimoroni/badger2040 firmware/PIMORONI_BADGER2040W/lib/badger2040.py"
_CSV = "pimoroni/badger2040 boards/badger2040w/pins.csv"
_HPPW = "pimoroni/pimoroni-pico libraries/badger2040w/badger2040w.hpp (enum pin)"
_PICOW = "raspberrypi/pico-sdk src/boards/include/boards/pico_w.h"

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
