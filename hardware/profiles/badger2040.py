"""Pimoroni Badger 2040: RP2040, 2.9" 296x128 UC8151 e-ink, five front buttons.

On battery the board powers itself through a latch (EN_3V3, GPIO10): a front
button press turns the 3V3 rail on, the firmware holds it on by driving the
latch high, and cuts its own power by driving it low. Buttons are active high
with pull-downs (they also feed the power-on circuit).
"""

_SDK = "raspberrypi/pico-sdk src/boards/include/boards/pimoroni_badger2040.h"
_HPP = "pimoroni/pimoroni-pico libraries/badger2040/badger2040.hpp (enum pin)"
_PY = "pimoroni/badger2040 modules/badger2040/badger2040.py"
_DRV = "pimoroni/pimoroni-pico drivers/uc8151/uc8151.cpp"

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

SOURCES = {
    "DISPLAY_CONTROLLER": _HPP + " (class uses UC8151, 296x128)",
    "SPI_ID": _SDK + " BADGER2040_INKY_SPI",
    "SPI_SCK": _SDK + " BADGER2040_INKY_SCK_PIN",
    "SPI_MOSI": _SDK + " BADGER2040_INKY_MOSI_PIN",
    "SPI_BAUD": _DRV + " spi_init(spi, 12'000'000)",
    "PIN_CS": _SDK + " BADGER2040_INKY_CSN_PIN",
    "PIN_DC": _SDK + " BADGER2040_INKY_DC_PIN",
    "PIN_RST": _SDK + " BADGER2040_INKY_RESET_PIN",
    "PIN_BUSY": _SDK + " BADGER2040_INKY_BUSY_PIN",
    "BUSY_LEVEL": _DRV + " is_busy() returns !gpio_get(BUSY)",
    "PANEL_UPDATE_MS": _PY + " Badger2040.update delay_ms table",
    "PANEL_FULL_UPDATE_MS": _PY + " Badger2040.update delay_ms table",
    "BUTTON_A": _SDK + " BADGER2040_SW_A_PIN; pull-down: " + _PY,
    "BUTTON_B": _SDK + " BADGER2040_SW_B_PIN; pull-down: " + _PY,
    "BUTTON_C": _SDK + " BADGER2040_SW_C_PIN; pull-down: " + _PY,
    "BUTTON_UP": _SDK + " BADGER2040_SW_UP_PIN; pull-down: " + _PY,
    "BUTTON_DOWN": _SDK + " BADGER2040_SW_DOWN_PIN; pull-down: " + _PY,
    "PIN_POWER_LATCH": _SDK + " BADGER2040_3V3_EN_PIN; " + _PY + " turn_off()",
    "PIN_VBAT_SENSE": _SDK + " BADGER2040_BAT_SENSE_PIN",
    "VBAT_DIVIDER": "pimoroni/pimoroni-pico micropython/examples/badger2040/badger_os.py (x3 gain)",
    "PIN_VREF_EN": _SDK + " BADGER2040_VREF_POWER_PIN",
    "PIN_VREF_1V2": _SDK + " BADGER2040_1V2_REF_PIN",
    "VREF_VOLTS": "pimoroni/pimoroni-pico micropython/examples/badger2040/badger_os.py (1.24)",
    "PIN_VBUS_DETECT": _SDK + " BADGER2040_VBUS_DETECT_PIN",
    "PIN_LED": _SDK + " BADGER2040_USER_LED_PIN; also " + _HPP,
    "HAS_RTC": _PY + " woken_by_rtc(): no RTC",
}
