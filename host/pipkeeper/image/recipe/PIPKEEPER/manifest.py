# What pipkeeper's own image freezes (MicroPython's manifest format, run by
# tools/makemanifest.py). $(BOARD_DIR) is the folder `pipkeeper firmware`
# stages for one build: this board definition and frozen/, the scorer's
# sources as `pipkeeper flash` would ship them, the data its presses read,
# and the image's /boot.py and /main.py (host/pipkeeper/image/build.py).

# The start: our own _boot.py (beside this file) mounts the filesystem and
# formats only a blank flash, never one holding games (the rp2 port's own
# formats whenever the mount fails); rp2.py is the port's `rp2` module it
# uses. Nothing else of the stock image's frozen extras (asyncio, sensors'
# drivers): the scorer uses none of them, and the flash is better spent on
# its language packs.
module("_boot.py", base_path="$(BOARD_DIR)")
module("rp2.py", base_path="$(PORT_DIR)/modules")

package("shared_engine", base_path="$(BOARD_DIR)/frozen")
package("firmware", base_path="$(BOARD_DIR)/frozen")
package("hardware", base_path="$(BOARD_DIR)/frozen")
for name in ("pkdata.py", "pkimage.py", "pklink.py", "boot.py", "main.py"):
    module(name, base_path="$(BOARD_DIR)/frozen")
