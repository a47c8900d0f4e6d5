// pipkeeper's own image: the rp2 port's configuration, then what the scorer
// never uses taken out of it, so that its frozen modules and language packs
// fit the 768 KB before the filesystem (mpconfigboard.h says why that
// boundary stays where it is).
//
// Why a file of this name: py/mpconfig.h includes <mpconfigport.h>, and the
// port's build puts this board's folder before the port's on the include
// path, so this file is the one found; #include_next then reads the port's
// own, unchanged. The options below are set there without #ifndef guards,
// so a board's mpconfigboard.h cannot turn them off (a second #define is an
// error under the port's -Werror); here they are #undef'd after it instead.
// Options the port leaves to py/mpconfig.h's defaults are set in
// mpconfigboard.h as usual.
//
// What goes, and why nothing needs it (the scorer's modules, the board's
// half of the link, mpremote's raw REPL and `pipkeeper test --board`'s
// engine tests use none of it; tests/host/test_image.py checks the list):
// - the FAT filesystem: the board's flash is LittleFS;
// - MD5, SHA-1 and AES (hashlib.md5/sha1, cryptolib): the link hashes with
//   SHA-256, which stays;
// - I2S, 1-Wire, DHT sensors, the bitstream driver: no such hardware;
// - the inline Thumb assembler (@micropython.asm_thumb), and the Thumb
//   code emitter itself (@micropython.native and viper compiled on the
//   board, 12.5 KB): the scorer's viper code is compiled by mpy-cross and
//   frozen, and what the board loads of it needs only the loader of native
//   code, which stays (MICROPY_PERSISTENT_CODE_LOAD_NATIVE);
// - the UART, PWM, the soft SPI and time_pulse_us: the Badger 2040's REPL
//   is on USB, its panel on the hardware SPI, and its LED is only switched
//   (I2C stays: the port's machine_i2c.c is built whatever the option says);
// - help() and its text, and the C half of asyncio, whose Python half the
//   image never froze.

#include_next <mpconfigport.h>

#undef MICROPY_VFS_FAT
#define MICROPY_VFS_FAT                         (0)
#undef MICROPY_PY_HASHLIB_MD5
#define MICROPY_PY_HASHLIB_MD5                  (0)
#undef MICROPY_PY_HASHLIB_SHA1
#define MICROPY_PY_HASHLIB_SHA1                 (0)
#undef MICROPY_PY_CRYPTOLIB
#define MICROPY_PY_CRYPTOLIB                    (0)
#undef MICROPY_PY_MACHINE_I2S
#define MICROPY_PY_MACHINE_I2S                  (0)
#undef MICROPY_PY_ONEWIRE
#define MICROPY_PY_ONEWIRE                      (0)
#undef MICROPY_PY_MACHINE_DHT_READINTO
#define MICROPY_PY_MACHINE_DHT_READINTO         (0)
#undef MICROPY_PY_MACHINE_BITSTREAM
#define MICROPY_PY_MACHINE_BITSTREAM            (0)
#undef MICROPY_EMIT_INLINE_THUMB
#define MICROPY_EMIT_INLINE_THUMB               (0)
#undef MICROPY_EMIT_THUMB
#define MICROPY_EMIT_THUMB                      (0)
#define MICROPY_PERSISTENT_CODE_LOAD_NATIVE     (1)
#undef MICROPY_PY_MACHINE_UART
#define MICROPY_PY_MACHINE_UART                 (0)
#undef MICROPY_PY_MACHINE_PWM
#define MICROPY_PY_MACHINE_PWM                  (0)
#undef MICROPY_PY_MACHINE_SOFTSPI
#define MICROPY_PY_MACHINE_SOFTSPI              (0)
#undef MICROPY_PY_MACHINE_PULSE
#define MICROPY_PY_MACHINE_PULSE                (0)
