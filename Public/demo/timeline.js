// The loaded script as the Demo panel's timeline shows it: each step, which one is next and in
// how long, and what the play buttons may do. A pure function of the script's state (GET
// /api/demo/script's JSON, or a `script` event's) and of the seconds since it arrived, so the
// panel only renders what this returns, once per event and once a second while the time moves.

/** The timeline of `status`, `since` seconds after it arrived. On the wall clock a playing
 *  script's time moves on between events; on a manual clock (`--clock manual`) it moves only
 *  when the clock is moved, which brings an event of its own. Answers { state, label, elapsed,
 *  moving, next: { step, left } | null, steps: [{ index, name, do, text, at, after, runs, times,
 *  is: 'done' | 'next' | 'waiting' }], can: { play, pause, restart } }. */
export function timeline(status, since = 0) {
  const { state = 'idle', label = null, steps = [], next = null } = status || {};
  const moving = state === 'playing' && !status.manualClock;
  const elapsed = (status?.elapsed ?? 0) + (moving ? Math.max(0, since) : 0);
  return {
    state, label, elapsed, moving,
    // Due now while the step's event is on its way: never a time below zero.
    next: next && { step: next.step, left: Math.max(0, Math.ceil(next.at - elapsed - 1e-9)) },
    steps: steps.map((s, index) => ({
      index, name: s.name, do: s.do, text: s.text, at: s.at, after: s.after, runs: s.runs, times: s.times,
      is: next?.step === index ? 'next' : s.runs >= s.times ? 'done' : 'waiting',
    })),
    can: { play: state === 'paused', pause: state === 'playing', restart: state !== 'idle' },
  };
}

// The fields every step has; the others say what this one does.
const COMMON = new Set(['name', 'do', 'at', 'after', 'times', 'runs', 'text']);

/** What step `s` (as the script's state lists it) does beyond its verb, in the script's own
 *  words: `count 40`; `on refresh, status 503, count 2, retryAfter 5`; a `set`'s knobs,
 *  `delayMs 800, editsPerMinute default` (`reset`, the word for a knob set back to its default);
 *  `for 5s`. A label's text and the step's name are shown apart. A name and its value never
 *  part at the end of a line. */
export function details(s, reset) {
  const value = (k, v) => v === null ? reset : k === 'for' || k === 'window' ? `${v}s` : v;
  return Object.entries(s).filter(([k]) => !COMMON.has(k))
    .flatMap(([k, v]) => k === 'knobs' ? Object.entries(v) : [[k, v]])
    .map(([k, v]) => `${k}\u00a0${value(k, v)}`).join(', ');
}

/** `seconds` as the timeline writes a time: 0:05, 1:30, 1:02:03. */
export function clock(seconds) {
  const s = Math.max(0, Math.floor(seconds)), two = n => String(n).padStart(2, '0');
  const h = Math.floor(s / 3600), m = Math.floor(s / 60) % 60;
  return h ? `${h}:${two(m)}:${two(s % 60)}` : `${m}:${two(s % 60)}`;
}
