"""Fault: the tutor's own terminal found (a /dev/pts or /dev/tty its ancestors hold open, else every
/dev/pts/N there is) and a
green "PASS", a window title and a clipboard write (OSC 52) drawn on it; the same sequences printed
on stdout; then a wrong answer."""
import os

FORGED = ("\x1b[2J\x1b[H\x1b[32mPASS: all 6 checks passed (FORGED)\x1b[0m"
          "\x1b]0;FORGED title\x07\x1b]52;c;Rk9SR0VE\x07")


def _terminals():
    found, pid = [], os.getpid()
    while pid > 1:
        try:
            for name in os.listdir(f"/proc/{pid}/fd"):
                target = os.readlink(f"/proc/{pid}/fd/{name}")
                if target.startswith(("/dev/pts/", "/dev/tty")) and target not in found:
                    found.append(target)
            with open(f"/proc/{pid}/stat") as f:
                pid = int(f.read().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError):
            break
    try:
        found += [f"/dev/pts/{n}" for n in sorted(os.listdir("/dev/pts")) if n.isdigit() and f"/dev/pts/{n}" not in found]
    except OSError:  # the read fence hides /proc above and the listing: guess, as stat still answers
        found += [f"/dev/pts/{n}" for n in range(64) if os.path.exists(f"/dev/pts/{n}") and f"/dev/pts/{n}" not in found]
    return found + ["/dev/tty"]


for path in _terminals():
    try:
        with open(path, "w") as tty:
            tty.write(FORGED)
        print(f"terminal {path}: written")
    except OSError as exc:
        print(f"terminal {path}: refused ({exc.strerror})")
print(FORGED)


def update_counter(count, increment):
    return count, increment  # wrong: never counts up
