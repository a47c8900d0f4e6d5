"""The board on an emulated RP2040: the real MicroPython image and the real
firmware, with the buttons on their GPIOs, the power latch, the flash chip
and the panel's SPI stream (see README.md beside this file)."""
