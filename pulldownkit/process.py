"""A background process that is stopped by its PID, never by name: pulldown itself, or the
nginx the benchmark compares it with."""
import os
import pathlib
import signal
import subprocess

from pulldownkit.waiting import STUCK_SECONDS


class Process:
    """A child process started by `start`; `stop` signals it by PID and waits, killing it if it hangs."""

    def __init__(self, args, cwd, env=None):
        self.args = list(args)
        self.cwd = cwd
        self.env = env
        self.process = None

    def start(self, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL):
        self.process = subprocess.Popen(self.args, cwd=self.cwd, env=self.env, stdin=subprocess.DEVNULL,
                                        stdout=stdout, stderr=stderr)
        return self

    def rss_kib(self):
        """Resident memory now, from /proc."""
        for line in pathlib.Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
        raise RuntimeError(f"no VmRSS for pid {self.process.pid}")

    def cpu_seconds(self):
        """User and system CPU time the process has used so far."""
        fields = pathlib.Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def rss_mb(self):
        return self.rss_kib() / 1024

    def stop(self, sig=signal.SIGTERM, timeout=STUCK_SECONDS):
        """Sends `sig` by PID, waits for the exit and returns the exit code (None if never started)."""
        if self.process is None:
            return None
        if self.process.poll() is None:
            self.process.send_signal(sig)
            try:
                self.process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.release()
        return self.process.returncode

    def release(self):
        """Closes what the process was given (pipes, files) once it has exited."""
        if self.process.stdout:
            self.process.stdout.close()
