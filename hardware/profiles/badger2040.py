"""Pimoroni Badger 2040: RP2040, 2.9" 296x128 UC8151 e-ink, five front buttons.

On battery the board powers itself through a latch (EN_3V3, GPIO10): a front
button press turns the 3V3 rail on, the firmware holds it on by driving the
latch high, and cuts its own power by driving it low. Buttons are active high
with pull-downs (they also feed the power-on circuit).
"""

NAME = "badger2040"
MCU_BOARD = "badger2040"

DISPLAY_CONTROLLER = "UC8151"
WIDTH = 296
HEIGHT = 128
SPI_ID = 0
SPI_SCK = 18
SPI_MOSI = 19
SPI_BAUD = 12000000
PIN_CS = 17
PIN_DC = 20
PIN_RST = 21
PIN_BUSY = 26
BUSY_LEVEL = 0          # UC8151 holds BUSY low while it works
PANEL_UPDATE_MS = 900   # "fast" update; "turbo" is 250 ms
PANEL_FULL_UPDATE_MS = 4700

# (label, GPIO, pull, active_high)
BUTTONS = (
    ("A", 12, "down", True),
    ("B", 13, "down", True),
    ("C", 14, "down", True),
    ("UP", 15, "down", True),
    ("DOWN", 11, "down", True),
)

PIN_POWER_LATCH = 10    # high: stay on; low: cut our own power (battery only)
PIN_VBAT_SENSE = 29     # ADC3, battery through a 1/3 divider
VBAT_DIVIDER = 3.0
PIN_VREF_EN = 27        # drive high while measuring to power the reference
PIN_VREF_1V2 = 28       # ADC2 reads a 1.24 V reference: gives the true VDD
VREF_VOLTS = 1.24
PIN_VBUS_DETECT = 24    # high while USB power is present
PIN_LED = 25            # white LED, active high, PWM-able

HAS_RTC = False
RTC_I2C_ID = None
PIN_RTC_SDA = None
PIN_RTC_SCL = None
PIN_RTC_ALARM = None
RTC_ADDR = None

RESERVED_PINS = ()

# Buttons the builder adds by hand (none: all five are on the board).
WIRED_BUTTONS = ()
