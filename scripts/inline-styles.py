#!/usr/bin/env python3
"""Writes each stylesheet a page in FOLDER links (<link rel="stylesheet" href="/x.css">, x.css in
FOLDER) into the page as a <style> element, in place of the link.

    scripts/inline-styles.py FOLDER
"""
import pathlib
import re
import sys

LINK = re.compile(r'<link rel="stylesheet" href="/([^"/]+\.css)">')


def main(folder):
    folder = pathlib.Path(folder)
    for page in folder.glob("*.html"):
        html = page.read_text()
        # A function as the replacement: the stylesheet's backslashes stay as they are.
        inlined = LINK.sub(lambda link: f"<style>{(folder / link[1]).read_text().strip()}</style>", html)
        if inlined != html:
            page.write_text(inlined)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__.strip())
    main(sys.argv[1])
