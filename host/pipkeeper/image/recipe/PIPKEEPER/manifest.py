# What pipkeeper's own image freezes (MicroPython's manifest format, run by
# tools/makemanifest.py). $(BOARD_DIR) is the folder `pipkeeper firmware`
# stages for one build: this board definition and frozen/, the scorer's
# sources as `pipkeeper flash` would ship them, the data its presses read,
# and the image's /boot.py and /main.py (host/pipkeeper/image/build.py).

# The rp2 port's own start: _boot.py mounts the filesystem (formatting a
# blank flash), rp2.py is the `rp2` module it uses. Nothing else of the
# stock image's frozen extras (asyncio, sensors' drivers): the scorer uses
# none of them, and the flash is better spent on its language packs.
module("_boot.py", base_path="$(PORT_DIR)/modules")
module("rp2.py", base_path="$(PORT_DIR)/modules")

package("shared_engine", base_path="$(BOARD_DIR)/frozen")
package("firmware", base_path="$(BOARD_DIR)/frozen")
package("hardware", base_path="$(BOARD_DIR)/frozen")
for name in ("pkdata.py", "pkimage.py", "pklink.py", "boot.py", "main.py"):
    module(name, base_path="$(BOARD_DIR)/frozen")
