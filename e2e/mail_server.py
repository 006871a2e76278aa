"""A real SMTP server for the mail tests: aiosmtpd on a free loopback port, with STARTTLS (a
throwaway certificate for localhost) and AUTH PLAIN/LOGIN required; every mail it accepts is
parsed with Python's `email` package."""
import email
import email.policy
import os
import ssl
import subprocess
import tempfile
import time

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword

from conftest import free_port

USER, SECRET = "mailer", "smtp-secret-Pa55"


class Recorder:
    """Keeps each accepted mail with how its session was protected."""

    def __init__(self, delay=0, exclude=()):
        self.mails = []
        self.delay = delay

    async def handle_DATA(self, server, session, envelope):
        if self.delay:
            import asyncio
            await asyncio.sleep(self.delay)
        message = email.message_from_bytes(envelope.content, policy=email.policy.default)
        self.mails.append({"message": message, "rcpt": envelope.rcpt_tos, "from": envelope.mail_from,
                           "tls": session.ssl is not None, "auth": session.authenticated, "raw": envelope.content})
        return "250 OK"


def authenticator(server, session, envelope, mechanism, data):
    ok = isinstance(data, LoginPassword) and data.login == USER.encode() and data.password == SECRET.encode()
    # handled=False: aiosmtpd then answers a refusal with 535 itself.
    return AuthResult(success=ok, handled=False)


class MailServer:
    def __init__(self, delay=0, exclude=()):
        self.folder = tempfile.mkdtemp(prefix="gatehouse-smtp-")
        self.cert, self.key = os.path.join(self.folder, "cert.pem"), os.path.join(self.folder, "key.pem")
        subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=localhost",
                        "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1", "-keyout", self.key, "-out", self.cert],
                       check=True, capture_output=True)
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(self.cert, self.key)
        self.recorder = Recorder(delay)
        self.port = free_port()
        self.context, self.exclude = context, list(exclude)
        self.start()

    def start(self):
        """Listens (again, after `stop`) on the same port, with the same certificate."""
        self.controller = Controller(self.recorder, hostname="127.0.0.1", port=self.port, tls_context=self.context,
                                     require_starttls=True, authenticator=authenticator, auth_required=True,
                                     auth_require_tls=True, auth_exclude_mechanism=self.exclude)
        self.controller.start()

    @property
    def url(self):
        return f"smtp://{USER}@localhost:{self.port}"

    def options(self):
        return ("--smtp-url", self.url, "--smtp-ca-file", self.cert, "--email-from", "Peated <hello@peated.example>")

    environment = {"GATEHOUSE_SMTP_PASSWORD": SECRET}

    def wait(self, count, timeout=15):
        deadline = time.time() + timeout
        while len(self.recorder.mails) < count and time.time() < deadline:
            time.sleep(0.05)
        assert len(self.recorder.mails) >= count, f"{len(self.recorder.mails)} mails, wanted {count}"
        return self.recorder.mails

    def stop(self):
        self.controller.stop()
