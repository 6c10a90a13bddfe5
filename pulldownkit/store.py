"""Reading a stopped server's SQLite database, to check what it kept."""
import shutil
import sqlite3
import subprocess


def sqlite_rows(path, query):
    """Runs a query read-only with the sqlite3 program when there is one; rows of strings."""
    if shutil.which("sqlite3"):
        result = subprocess.run(["sqlite3", "-readonly", str(path), query], capture_output=True, text=True,
                                timeout=30, check=True)
        return [line.split("|") for line in result.stdout.splitlines()]
    connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return [[str(value) for value in row] for row in connection.execute(query).fetchall()]
    finally:
        connection.close()
