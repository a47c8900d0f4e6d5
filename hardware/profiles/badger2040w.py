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
