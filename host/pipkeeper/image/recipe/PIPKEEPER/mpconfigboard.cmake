# pipkeeper's own MicroPython image: an RP2040 with 2 MB of flash (the
# Badger 2040 and the Raspberry Pi Pico), the scorer frozen in.
set(PICO_BOARD "pico")
set(PICO_PLATFORM "rp2040")
set(MICROPY_FROZEN_MANIFEST ${MICROPY_BOARD_DIR}/manifest.py)
