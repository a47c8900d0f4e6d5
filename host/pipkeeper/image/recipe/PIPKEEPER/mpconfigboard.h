// pipkeeper's own MicroPython image (host/pipkeeper/image/).
#define MICROPY_HW_BOARD_NAME                   "pipkeeper scorer (RP2040)"
// 1,280 KB of filesystem at the end of the 2 MB flash, from 0x100C0000:
// 768 KB for the code, which holds upstream's 340 KB, the scorer's frozen
// modules and every language's pack (about 280 KB). Upstream RPI_PICO's
// 1,408 KB from 0x100A0000 leaves 640 KB, which they do not fit in.
#define MICROPY_HW_FLASH_STORAGE_BYTES          (1280 * 1024)
// The collector's mark stack (entries of 2 bytes): the port's 64 overflow
// as soon as one table it marks outgrows them (a module of 48 names did,
// shared_engine/dgn.py), and every collection then scans the whole heap
// again, 2.3 -> 6.8 ms on the RP2040: a press on USB collects once.
#define MICROPY_ALLOC_GC_STACK_SIZE             (256)
// What the scorer never uses, of the options the port leaves to
// py/mpconfig.h's defaults (the port's own are taken out in this folder's
// mpconfigport.h, which says why): complex numbers and cmath, the math
// module's special functions (gamma, erf), uctypes, re, platform and the
// I2C target mode. Flash for the scorer's language packs instead. (deflate
// stays: binascii.crc32, the checkpoint's check, is built with it.)
#define MICROPY_PY_BUILTINS_COMPLEX             (0)
#define MICROPY_PY_CMATH                        (0)
#define MICROPY_PY_MATH_SPECIAL_FUNCTIONS       (0)
#define MICROPY_PY_UCTYPES                      (0)
#define MICROPY_PY_RE                           (0)
#define MICROPY_PY_PLATFORM                     (0)
#define MICROPY_PY_MACHINE_I2C_TARGET           (0)
// And help() with its text, and asyncio's C half (the image never froze its
// Python half): issue 31's house rules needed the room.
#define MICROPY_PY_BUILTINS_HELP                (0)
#define MICROPY_PY_ASYNCIO                      (0)
