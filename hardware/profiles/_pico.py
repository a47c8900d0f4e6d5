"""What every Raspberry Pi Pico build shares: the Pico's own pins and power.

Not a build (hardware.profiles.NAMES does not list it): the Pico profiles
start with ``from hardware.profiles._pico import *`` and add their panel and
buttons. The Pico has no power latch: on battery the firmware sleeps between
presses (machine.lightsleep, woken by a button) and a power switch turns the
scorer off between games (hardware/README.md).
"""


MCU_BOARD = "pico"
WIDTH = 296
HEIGHT = 128

PIN_POWER_LATCH = None
PIN_VBAT_SENSE = 29     # ADC3 reads VSYS/3
VBAT_DIVIDER = 3.0
PIN_VREF_EN = None
PIN_VREF_1V2 = None
VREF_VOLTS = None
PIN_VBUS_DETECT = 24
PIN_LED = 25

HAS_RTC = False
RTC_I2C_ID = None
PIN_RTC_SDA = None
PIN_RTC_SCL = None
PIN_RTC_ALARM = None
RTC_ADDR = None

RESERVED_PINS = (23,)   # the Pico's SMPS power-save control
