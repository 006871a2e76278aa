"""A PostgreSQL server of one test's own, which the test may stop and start (the suite's shared
server must stay up for the others): Debian's binaries, initdb into a temporary folder, owned by
an unprivileged user when the test runs as root (postgres refuses root), on a free loopback port."""
import glob
import os
import shutil
import subprocess
import tempfile

from conftest import free_port


class PrivatePostgres:
    def __init__(self):
        self.bin = sorted(glob.glob("/usr/lib/postgresql/*/bin"))[-1]
        self.folder = tempfile.mkdtemp(prefix="gatehouse-pg-own-")
        self.runner = []
        if os.geteuid() == 0:
            subprocess.run(["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", "gatehouse-pg"],
                           capture_output=True)
            shutil.chown(self.folder, "gatehouse-pg")
            self.runner = ["runuser", "-u", "gatehouse-pg", "--"]
        os.chmod(self.folder, 0o700)
        self.port = free_port()
        self.data = os.path.join(self.folder, "data")
        self.run("initdb", "-D", self.data, "-U", "gatehouse", "--auth=trust", "-E", "UTF8", "--locale=C.UTF-8")
        self.start()
        self.run("createdb", "-h", "127.0.0.1", "-p", str(self.port), "-U", "gatehouse", "gatehouse")
        self.url = f"postgres://gatehouse@127.0.0.1:{self.port}/gatehouse?sslmode=disable"

    def run(self, tool, *args):
        subprocess.run([*self.runner, os.path.join(self.bin, tool), *args], check=True, capture_output=True)

    def start(self):
        self.run("pg_ctl", "-D", self.data, "-l", os.path.join(self.folder, "server.log"), "-w", "-t", "60", "-o",
                 f"-h 127.0.0.1 -p {self.port} -k {self.folder} -c max_connections=100 -c fsync=off", "start")

    def stop(self, mode="fast"):
        """`fast`: every backend is told to end and open transactions roll back, as in a restart."""
        self.run("pg_ctl", "-D", self.data, "-m", mode, "-w", "stop")

    def close(self):
        subprocess.run([*self.runner, os.path.join(self.bin, "pg_ctl"), "-D", self.data, "-m", "immediate", "stop"],
                       capture_output=True)
        shutil.rmtree(self.folder, ignore_errors=True)
