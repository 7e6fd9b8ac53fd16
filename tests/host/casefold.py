#!/usr/bin/python3
"""A folder seen through a filesystem that folds case, as macOS's APFS
and Windows' drives under WSL2 do (tests/host/image.sh): a name finds
the entry whose name is the same but for case, and a new name that
matches one so is that one.  Debian's python3-fuse; as root.

    casefold.py BACKING MOUNTPOINT    (returns once mounted; fusermount -u
                                       MOUNTPOINT ends it)
"""
import errno
import os
import sys

import fuse

fuse.fuse_python_api = (0, 2)


class CaseFold(fuse.Fuse):
    """A pass-through to self.root whose lookups ignore case."""

    root = '/'

    def real(self, path):
        cur = self.root
        for comp in [c for c in path.split('/') if c]:
            cand = os.path.join(cur, comp)
            if not os.path.lexists(cand):
                low = comp.casefold()
                try:
                    for name in os.listdir(cur):
                        if name.casefold() == low:
                            cand = os.path.join(cur, name)
                            break
                except OSError:
                    pass
            cur = cand
        return cur

    def getattr(self, path):
        return os.lstat(self.real(path))

    def readdir(self, path, offset):
        for name in ['.', '..'] + os.listdir(self.real(path)):
            yield fuse.Direntry(name)

    def readlink(self, path):
        return os.readlink(self.real(path))

    def mknod(self, path, mode, dev):
        os.mknod(self.real(path), mode, dev)

    def mkdir(self, path, mode):
        os.mkdir(self.real(path), mode)

    def unlink(self, path):
        os.unlink(self.real(path))

    def rmdir(self, path):
        os.rmdir(self.real(path))

    def symlink(self, target, path):
        os.symlink(target, self.real(path))

    def rename(self, old, new):
        os.rename(self.real(old), self.real(new))

    def link(self, target, path):
        os.link(self.real(target), self.real(path))

    def chmod(self, path, mode):
        os.chmod(self.real(path), mode)

    def chown(self, path, uid, gid):
        os.lchown(self.real(path), uid, gid)

    def truncate(self, path, size):
        os.truncate(self.real(path), size)

    def utimens(self, path, acc, mod):
        os.utime(self.real(path), ns=(acc.tv_sec * 10**9 + acc.tv_nsec, mod.tv_sec * 10**9 + mod.tv_nsec),
                 follow_symlinks=False)

    def access(self, path, mode):
        if not os.access(self.real(path), mode):
            return -errno.EACCES
        return 0

    def statfs(self):
        return os.statvfs(self.root)

    def open(self, path, flags):
        os.close(os.open(self.real(path), flags & ~(os.O_CREAT | os.O_EXCL)))

    def create(self, path, flags, mode):
        os.close(os.open(self.real(path), flags | os.O_CREAT, mode))

    def _at(self, path, flags, io, *args):
        fd = os.open(self.real(path), flags)
        try:
            return io(fd, *args)
        finally:
            os.close(fd)

    def read(self, path, size, offset):
        return self._at(path, os.O_RDONLY, os.pread, size, offset)

    def write(self, path, buf, offset):
        return self._at(path, os.O_WRONLY, os.pwrite, buf, offset)

    def fsync(self, path, datasync):
        return 0

    def flush(self, path):
        return 0

    def release(self, path, flags):
        return 0


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    fs = CaseFold(version='casefold', usage=__doc__)
    fs.root = os.path.abspath(sys.argv[1])
    fs.parse(['casefold', sys.argv[2], '-o', 'allow_other,default_permissions'])
    fs.main()


if __name__ == '__main__':
    main()
