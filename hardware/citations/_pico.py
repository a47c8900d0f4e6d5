"""The citations of hardware/profiles/_pico.py: where each of its values comes
from (``SOURCES``, checked by hardware/contract.py). Kept out of the profile,
which the board imports on every press: there these strings cost some 7 KB of
heap and their names. The profile gives them as its ``SOURCES`` on the host."""

_PICO = "Raspberry Pi Pico datasheet, pinout (GP23 SMPS PS, GP24 VBUS sense, GP25 LED, GP29 ADC3 = VSYS/3)"
_SDK = "raspberrypi/pico-sdk src/boards/include/boards/pico.h"

PICO_SOURCES = {
    "PIN_VBAT_SENSE": _PICO,
    "VBAT_DIVIDER": _PICO,
    "PIN_VBUS_DETECT": _PICO,
    "PIN_LED": _PICO + "; " + _SDK + " PICO_DEFAULT_LED_PIN",
    "HAS_RTC": "the Pico has no battery-backed RTC",
    "RESERVED_PINS": _SDK + " PICO_SMPS_MODE_PIN 23",
}
