"""The citations of hardware/profiles/badger2040.py: where each of its values comes
from (``SOURCES``, checked by hardware/contract.py). Kept out of the profile,
which the board imports on every press: there these strings cost some 7 KB of
heap and their names. The profile gives them as its ``SOURCES`` on the host."""

_SDK = "raspberrypi/pico-sdk src/boards/include/boards/pimoroni_badger2040.h"
_HPP = "pimoroni/pimoroni-pico libraries/badger2040/badger2040.hpp (enum pin)"
_PY = "pimoroni/badger2040 modules/badger2040/badger2040.py"
_DRV = "pimoroni/pimoroni-pico drivers/uc8151/uc8151.cpp"

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
