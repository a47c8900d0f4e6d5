"""The board's flash as a folder of the laptop, for the MicroPython unix port
(the simulated and the bare virtual boards). Runs inside ``micropython``.

    import flashdir; flashdir.mount("/path/to/DIR")

remounts ``/`` so that the board's ``/games/0001.dgn`` is ``DIR/games/0001.dgn``.

Why not ``vfs.VfsPosix(DIR)`` mounted at ``/``: its ``rename`` builds both
paths in one shared buffer, so the second overwrites the first and the call
renames a file onto itself, quietly (MicroPython 1.29). Every atomic write
(a temporary file, then a rename) then silently did nothing. Here both paths
are built in Python and handed to a root-less VfsPosix, which does the
rename right. Each method maps a board path to the folder's path.
"""

import vfs


class FlashDir:
    def __init__(self, root):
        self.root = root.rstrip("/")
        self.posix = vfs.VfsPosix()
        self.cwd = "/"

    def _path(self, path):
        if not path.startswith("/"):
            path = self.cwd.rstrip("/") + "/" + path
        return self.root + path

    def mount(self, readonly, mkfs):
        pass

    def umount(self):
        pass

    def open(self, path, mode):
        return self.posix.open(self._path(path), mode)

    def ilistdir(self, path):
        return self.posix.ilistdir(self._path(path))

    def chdir(self, path):
        self.cwd = path if path.startswith("/") else self.cwd.rstrip("/") + "/" + path

    def getcwd(self):
        return self.cwd

    def mkdir(self, path):
        return self.posix.mkdir(self._path(path))

    def remove(self, path):
        return self.posix.remove(self._path(path))

    def rename(self, old, new):
        return self.posix.rename(self._path(old), self._path(new))

    def rmdir(self, path):
        return self.posix.rmdir(self._path(path))

    def stat(self, path):
        return self.posix.stat(self._path(path))

    def statvfs(self, path):
        return self.posix.statvfs(self._path(path))


def mount(root):
    """Make ``root`` (a folder of the laptop) the board's ``/``."""
    import os

    vfs.umount("/")
    vfs.mount(FlashDir(root), "/")
    os.chdir("/")
