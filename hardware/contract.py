"""What a board profile must contain, and the checks that keep it honest.

Laptop-side (CPython) only: the tests and the tools call `problems(profile)`;
the board never imports this. One pin, one job: every GPIO a profile names is
listed by `pin_jobs`, and `problems` reports any GPIO given two jobs, any pin
the board keeps for itself, and any pin without a cited source.
"""

from hardware import citations

# The contract of notes/CONTRACTS.md ("Board profile").
CONTRACT_KEYS = (
    "NAME", "DISPLAY_CONTROLLER", "WIDTH", "HEIGHT",
    "SPI_ID", "SPI_SCK", "SPI_MOSI", "SPI_BAUD",
    "PIN_CS", "PIN_DC", "PIN_RST", "PIN_BUSY",
    "BUTTONS", "PIN_POWER_LATCH", "PIN_VBAT_SENSE", "VBAT_DIVIDER",
    "PIN_LED", "HAS_RTC",
)
# What this folder adds (listed in CONTRACTS.md too); every profile defines them.
EXTRA_KEYS = (
    "MCU_BOARD", "BUSY_LEVEL", "PANEL_UPDATE_MS", "PANEL_FULL_UPDATE_MS",
    "PIN_VBUS_DETECT", "PIN_VREF_EN", "PIN_VREF_1V2", "VREF_VOLTS",
    "RTC_I2C_ID", "PIN_RTC_SDA", "PIN_RTC_SCL", "PIN_RTC_ALARM", "RTC_ADDR",
    "RESERVED_PINS", "WIRED_BUTTONS",
)
REQUIRED = CONTRACT_KEYS + EXTRA_KEYS

# Single-GPIO keys, in the order wiring tables list them.
PIN_KEYS = (
    "SPI_SCK", "SPI_MOSI", "PIN_CS", "PIN_DC", "PIN_RST", "PIN_BUSY",
    "PIN_POWER_LATCH", "PIN_VBAT_SENSE", "PIN_VREF_EN", "PIN_VREF_1V2",
    "PIN_VBUS_DETECT", "PIN_LED", "PIN_RTC_SDA", "PIN_RTC_SCL", "PIN_RTC_ALARM",
)
BUTTON_LABELS = ("A", "B", "C", "UP", "DOWN")
CONTROLLERS = ("UC8151", "SSD1680")
MCU_BOARDS = ("badger2040", "badger2040w", "pico")
RP2040_GPIOS = range(30)      # GPIO0..GPIO29
ADC_GPIOS = (26, 27, 28, 29)  # ADC0..ADC3

# RP2040 fixed SPI function pins (datasheet, GPIO function table).
SPI_PINS = {
    0: {"SCK": (2, 6, 18, 22), "MOSI": (3, 7, 19, 23)},
    1: {"SCK": (10, 14, 26), "MOSI": (11, 15, 27)},
}


def pin_jobs(profile):
    """[(job, gpio)] for every GPIO the profile gives a job; None pins skipped."""
    jobs = []
    for key in PIN_KEYS:
        gpio = getattr(profile, key, None)
        if gpio is not None:
            jobs.append((key, gpio))
    for label, gpio, _pull, _high in getattr(profile, "BUTTONS", ()):
        jobs.append(("BUTTON_" + label, gpio))
    return jobs


def problems(profile):
    """Every way `profile` breaks the contract, as sentences; [] when sound."""
    out = []
    name = getattr(profile, "__name__", "?").rsplit(".", 1)[-1]
    missing = [k for k in REQUIRED if not hasattr(profile, k)]
    if missing:
        return ["%s lacks %s" % (name, ", ".join(missing))]
    p = profile
    cites = citations.of(p)
    if p.NAME != name:
        out.append("NAME is %r, the module is %r" % (p.NAME, name))
    if p.DISPLAY_CONTROLLER not in CONTROLLERS:
        out.append("DISPLAY_CONTROLLER %r is not one of %s" % (p.DISPLAY_CONTROLLER, CONTROLLERS))
    if p.MCU_BOARD not in MCU_BOARDS:
        out.append("MCU_BOARD %r is not one of %s" % (p.MCU_BOARD, MCU_BOARDS))
    if (p.WIDTH, p.HEIGHT) != (296, 128):
        out.append("panel is %sx%s, the firmware draws 296x128" % (p.WIDTH, p.HEIGHT))
    if p.BUSY_LEVEL not in (0, 1):
        out.append("BUSY_LEVEL must be 0 or 1")
    if p.SPI_ID not in SPI_PINS:
        out.append("SPI_ID %r is not an RP2040 SPI block" % (p.SPI_ID,))
    else:
        if p.SPI_SCK not in SPI_PINS[p.SPI_ID]["SCK"]:
            out.append("GPIO%s cannot be SPI%s SCK" % (p.SPI_SCK, p.SPI_ID))
        if p.SPI_MOSI not in SPI_PINS[p.SPI_ID]["MOSI"]:
            out.append("GPIO%s cannot be SPI%s TX (MOSI)" % (p.SPI_MOSI, p.SPI_ID))
    if not (isinstance(p.SPI_BAUD, int) and 100000 <= p.SPI_BAUD <= 20000000):
        out.append("SPI_BAUD %r is outside 0.1-20 MHz" % (p.SPI_BAUD,))
    labels = tuple(b[0] for b in p.BUTTONS)
    if labels != BUTTON_LABELS:
        out.append("BUTTONS are %s, expected exactly %s in that order" % (labels, BUTTON_LABELS))
    for b in p.BUTTONS:
        if len(b) != 4 or b[2] not in ("up", "down", None) or not isinstance(b[3], bool):
            out.append("button %r is not (label, gpio, 'up'|'down'|None, bool)" % (b,))
        elif b[2] == "up" and b[3] or b[2] == "down" and not b[3]:
            out.append("button %s: a pull-%s makes it read %s at rest, so it cannot be active-%s"
                       % (b[0], b[2], int(b[2] == "up"), "high" if b[3] else "low"))
    seen = {}
    for job, gpio in pin_jobs(p):
        if not isinstance(gpio, int) or isinstance(gpio, bool) or gpio not in RP2040_GPIOS:
            out.append("%s = %r is not an RP2040 GPIO (0-29)" % (job, gpio))
            continue
        if gpio in seen:
            out.append("GPIO%d has two jobs: %s and %s" % (gpio, seen[gpio], job))
        seen[gpio] = job
        if gpio in p.RESERVED_PINS:
            out.append("%s uses GPIO%d, which the board keeps for itself" % (job, gpio))
        if not cites.get(job):
            out.append("%s (GPIO%d) cites no source in hardware/citations/" % (job, gpio))
    for key in ("PIN_VBAT_SENSE", "PIN_VREF_1V2"):
        gpio = getattr(p, key)
        if gpio is not None and gpio not in ADC_GPIOS:
            out.append("%s = GPIO%s has no ADC" % (key, gpio))
    if (p.PIN_VBAT_SENSE is None) != (p.VBAT_DIVIDER == 0.0):
        out.append("VBAT_DIVIDER must be 0.0 exactly when there is no PIN_VBAT_SENSE")
    for label in p.WIRED_BUTTONS:
        if label not in labels:
            out.append("WIRED_BUTTONS names %r, which is not a button" % (label,))
    if p.HAS_RTC != (p.PIN_RTC_SDA is not None):
        out.append("HAS_RTC disagrees with the RTC pins")
    for key in ("DISPLAY_CONTROLLER", "SPI_ID", "SPI_BAUD", "BUSY_LEVEL", "HAS_RTC",
                "PANEL_UPDATE_MS"):
        if not cites.get(key):
            out.append("%s cites no source in hardware/citations/" % key)
    return out
