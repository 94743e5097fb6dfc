#!/usr/bin/env python3
"""shell-test.py TOP: ./pkv shell as a person at a terminal uses it.

./pkv shell runs on a pseudo-terminal of a chosen size, with a shared
directory holding a file from the host. The test types into the guest's
shell and checks that the guest's tty has the host terminal's size and
TERM, that the host's file can be read at /pkv/share, and that a file
written there comes back to the host; then `exit` must end QEMU.

KTAP v1 on stdout; exit 1 if a check failed.
"""
import fcntl
import os
import pty
import select
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import termios
import time

ROWS, COLS = 37, 101
BOOT_LIMIT_S = int(os.environ.get('PKV_SHELL_TEST_TIMEOUT', '300'))


def main():
    top = sys.argv[1]
    work = tempfile.mkdtemp(prefix='pkv-shell-test.')
    try:
        return run(top, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def run(top, work):
    share = os.path.join(work, 'share')
    os.mkdir(share)
    token = 'from-the-host-%d' % os.getpid()
    with open(os.path.join(share, 'in.txt'), 'w') as f:
        f.write(token + '\n')

    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack('HHHH', ROWS, COLS, 0, 0))
    env = dict(os.environ, TERM='xterm')

    def controlling_tty():
        os.setsid()
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)

    proc = subprocess.Popen([os.path.join(top, 'pkv'), 'shell', '--share', share],
                            stdin=slave, stdout=slave, stderr=slave, env=env,
                            preexec_fn=controlling_tty, cwd=top)
    os.close(slave)
    log = bytearray()
    deadline = time.monotonic() + BOOT_LIMIT_S

    def read_until(marker):
        while marker not in log:
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            r, _, _ = select.select([master], [], [], min(left, 1.0))
            if r:
                try:
                    data = os.read(master, 65536)
                except OSError:  # EIO: every writer of the pty is gone
                    return marker in log
                if not data:
                    return marker in log
                log.extend(data)
        return True

    prompt_seen = read_until(b"(the host's: stty size)")
    if prompt_seen:
        # The guest echoes what is typed: markers are built by the shell,
        # so that the echo of the command line does not match them.
        os.write(master, b'echo "SIZE""=$(stty size) TERM""=$TERM"; '
                 b'echo "SHARE""=$(cat /pkv/share/in.txt)"; '
                 b'echo from-the-guest >/pkv/share/out.txt; sync; echo "DONE""=1"\r')
        read_until(b'DONE=1')
        os.write(master, b'exit\r')
    exited = True
    try:
        proc.wait(timeout=max(1, deadline - time.monotonic()))
    except subprocess.TimeoutExpired:
        exited = False
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    # What is left in the pty after QEMU went.
    while True:
        r, _, _ = select.select([master], [], [], 0.2)
        if not r:
            break
        try:
            data = os.read(master, 65536)
        except OSError:
            break
        if not data:
            break
        log.extend(data)
    os.close(master)
    text = log.decode('utf-8', 'replace').replace('\r', '')

    checks = [
        ('the shell started (its greeting within %d s)' % BOOT_LIMIT_S, prompt_seen),
        ("the guest's tty has the host terminal's size, %d rows %d columns" % (ROWS, COLS),
         'SIZE=%d %d ' % (ROWS, COLS) in text),
        ("the host's TERM (xterm) is the guest's", 'TERM=xterm\n' in text),
        ("the host's file reads at /pkv/share", 'SHARE=%s\n' % token in text),
        ('a file written to /pkv/share comes back to the host',
         read_file(os.path.join(share, 'out.txt')) == 'from-the-guest\n'),
        ("'exit' ends QEMU, status 0", exited and proc.returncode == 0),
    ]
    # TAP 13 for meson's parser, which knows no KTAP version line
    print('TAP version 13')
    print('1..%d' % len(checks))
    failed = 0
    for i, (desc, good) in enumerate(checks, 1):
        print('%s %d %s' % ('ok' if good else 'not ok', i, desc))
        failed += not good
    if failed:
        print('# the terminal, last 60 lines:')
        for line in text.splitlines()[-60:]:
            print('# ' + line)
    return 1 if failed else 0


def read_file(path):
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        return None


if __name__ == '__main__':
    sys.exit(main())
