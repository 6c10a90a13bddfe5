"""Real touch input: one finger on a Chromium page through the DevTools protocol
(Input.dispatchTouchEvent), the path a real finger takes, never a call into the page's code."""

# Resolves at the page's next animation frame: a finger moves once a frame.
NEXT_FRAME = "() => new Promise(requestAnimationFrame)"


class Finger:
    """One finger on `page`; moves go one step per frame, as a finger's would."""

    def __init__(self, page):
        self.page = page
        self._cdp = None

    def send(self, kind, x=None, y=None):
        """One touch event: touchStart, touchMove (at x, y) or touchEnd."""
        if self._cdp is None:
            self._cdp = self.page.context.new_cdp_session(self.page)
        points = [] if kind == "touchEnd" else [{"x": x, "y": y, "id": 1}]
        self._cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    def down(self, x, y):
        self.send("touchStart", x, y)

    def move(self, x, y):
        self.send("touchMove", x, y)

    def up(self):
        self.send("touchEnd")

    def drag(self, x, y0, y1, steps=12):
        """Moves the finger, already down, from y0 to y1 in `steps` steps, one per frame."""
        for i in range(1, steps + 1):
            self.move(x, y0 + (y1 - y0) * i / steps)
            self.page.evaluate(NEXT_FRAME)

    def hold(self, x, y, frames=12):
        """Keeps the finger, already down, still at (x, y) for `frames` frames: lifted after that,
        it flings nothing."""
        for _ in range(frames):
            self.move(x, y)
            self.page.evaluate(NEXT_FRAME)

    def pull(self, distance, x, y, steps=12, release=True):
        """Puts the finger down at (x, y) and drags it `distance` px down; lifts it if `release`."""
        self.down(x, y)
        self.drag(x, y, y + distance, steps)
        if release:
            self.up()
