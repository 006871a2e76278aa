"""Issue 37 in the terminal: `gatehouse mfa enrol` prints the QR code in half blocks, the setup
key and, after the first code, the recovery codes; `gatehouse login` then asks for the
authenticator app's code, refuses a wrong one with the tries left, and signs in with the right
one. Driven through a real pseudo-terminal, as a person types."""
import os
import pty
import re
import select
import subprocess
import tempfile
import time
import pyotp

from conftest import BIN
from test_mfa_api import PASSWORD, SEEN_SECRETS, account, mfa_server  # noqa: F401 (the module's server)


class Terminal:
    """A command on a pseudo-terminal: what it writes is read until a prompt, answers are typed."""

    def __init__(self, args, environment):
        self.master, slave = pty.openpty()
        self.process = subprocess.Popen(args, stdin=slave, stdout=slave, stderr=slave, env=environment, close_fds=True)
        os.close(slave)
        self.output = ""

    def expect(self, pattern, timeout=30):
        deadline = time.time() + timeout
        while not re.search(pattern, self.output):
            ready, _, _ = select.select([self.master], [], [], max(0, deadline - time.time()))
            if not ready:
                raise AssertionError(f"no {pattern!r} in {self.output[-2000:]!r}")
            try:
                self.output += os.read(self.master, 65536).decode(errors="replace")
            except OSError:
                raise AssertionError(f"ended before {pattern!r}: {self.output[-2000:]!r}")
        return self.output

    def type(self, text):
        os.write(self.master, (text + "\n").encode())

    def finish(self, timeout=30):
        code = self.process.wait(timeout=timeout)
        try:
            while select.select([self.master], [], [], 0.2)[0]:
                self.output += os.read(self.master, 65536).decode(errors="replace")
        except OSError:
            pass
        return code


def environment():
    """A person of their own: a fresh home, config and state folder, and no keyring."""
    home = tempfile.mkdtemp(prefix="gatehouse-cli-home-")
    return {**os.environ, "HOME": home, "XDG_CONFIG_HOME": home, "XDG_STATE_HOME": home,
            "DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent"}


def test_mfa_cli_enrolPrintsTheQRCodeThenLoginAsksForTheCode(mfa_server):
    email, env = account(mfa_server), environment()
    login = Terminal([BIN, "login", "--server", mfa_server.url, "--email", email], env)
    login.expect("Password: ")
    login.type(PASSWORD)
    assert login.finish() == 0, login.output
    assert PASSWORD not in login.output, "the password is never echoed"

    enrol = Terminal([BIN, "mfa", "enrol", "--server", mfa_server.url, "--name", "Terminal"], env)
    shown = enrol.expect("Enter the 6-digit code the app shows: ")
    assert "█" in shown or "▀" in shown, "the QR code in half blocks"
    key = re.search(r"setup key:\s+([A-Z2-7 ]+)\r?\n", shown).group(1)
    totp = pyotp.TOTP(key.replace(" ", ""))
    SEEN_SECRETS.append(key.replace(" ", ""))
    enrol.type(totp.now())
    assert enrol.finish() == 0, enrol.output
    codes = re.findall(r"^\s+([a-z2-9]{5}-[a-z2-9]{5})\s*$", enrol.output, re.M)
    SEEN_SECRETS.extend(codes)
    assert "Two-step verification is on." in enrol.output and len(codes) == 10

    again = Terminal([BIN, "login", "--server", mfa_server.url, "--email", email], environment())
    again.expect("Password: ")
    again.type(PASSWORD)
    again.expect(r"Enter the 6-digit code from your authenticator app \(r: a recovery code instead\): ")
    again.type("000000")
    again.expect("4 tries left")
    again.expect(r"authenticator app \(r: a recovery code instead\): ")
    again.type("r")
    again.expect("Enter one of your recovery codes: ")
    again.type(codes[0])
    assert again.finish() == 0, again.output
    assert f"Signed in as Mia Factor <{email}>" in again.output
