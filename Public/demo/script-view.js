// The Demo panel's Script part: the loaded script as a timeline (timeline.js says what it shows),
// the current act's label, and Play, Pause and Restart. It renders the script's state as it
// arrives (the panel's GET when it opens, the stream's `script` events, a button's answer) and,
// while the script plays on the wall clock, once a second so the time to the next step counts
// down; on a manual clock the time moves only with the clock, whose moves bring events.
import * as demo from './api.js';
import { el } from '../dom.js';
import { fill } from '../i18n.js';
import { clock, details, timeline } from './timeline.js';

/** The Script fieldset in the texts `t`; `act(request, done)` waits for a button's request and
 *  says how it went. Answers { set, show(status), tick() }. */
export function scriptView(t, act, button) {
  const set = el('fieldset', null, 'demo-script'), head = el('p', null, 'demo-act'), where = el('p', null, 'demo-where');
  const controls = el('div', null, 'demo-play'), list = el('ol', null, 'demo-steps');
  set.append(el('legend', t.script), head, where, controls, list);
  let status = null, at = 0, timer, shown = true; // the state, when it came; the countdown

  const buttons = {};
  for (const what of ['play', 'pause', 'restart']) {
    const b = buttons[what] = button(t[what], () => act(demo.control(what).then(show), () => t[`${what}Done`]));
    b.name = what;
    controls.append(b);
  }

  /** What a step does, in words: its verb, a label's text, its name; in the list (`full`) its
   *  fields too. */
  const says = (s, full, more = full && details(status.steps[s.index], t.knobDefault)) =>
    [(t[`do_${s.do}`] || s.do) + (more ? `: ${more}` : ''),
    s.do === 'label' ? `“${s.text}”` : '', s.name ? `(${s.name})` : '']
    .filter(Boolean).join(' ');
  const when = s => s.at !== null ? clock(s.at)
    : 'refreshes' in s.after ? fill(t.afterRefreshes, { n: s.after.refreshes }) : fill(t.afterStep, { name: s.after.step });

  function render() {
    const view = timeline(status, (performance.now() - at) / 1000), loaded = view.state !== 'idle';
    set.dataset.state = view.state;
    head.textContent = loaded ? view.label || t.noAct : t.noScript;
    head.classList.toggle('none', !view.label);
    controls.hidden = list.hidden = where.hidden = !loaded;
    for (const [what, b] of Object.entries(buttons)) b.disabled = !view.can[what];
    const next = view.next && view.steps[view.next.step];
    where.textContent = [t[view.state], clock(view.elapsed),
      next ? fill(view.next.left ? t.nextIn : t.nextNow, { step: says(next), left: clock(view.next.left) }) : '']
      .filter(Boolean).join(' · ');
    // The list is rebuilt only when the steps change, not at every tick of the clock.
    const rows = view.steps.map(s => [s.is, when(s), says(s, true), s.times > 1 ? fill(t.runs, s) : s.runs ? '✓' : '']);
    const key = JSON.stringify(rows);
    if (key !== list.dataset.key) {
      list.dataset.key = key;
      list.replaceChildren(...rows.map(([is, time, what, runs]) => {
        const li = el('li', null, is);
        if (is === 'next') li.ariaCurrent = 'step';
        li.append(el('span', time, 'when'), el('span', what, 'what'), el('span', runs, 'runs'));
        return li;
      }));
      // A long script scrolls to its next step, with the step run before it in sight above.
      const current = list.querySelector('.next');
      if (current) list.scrollTop = (current.previousElementSibling || current).offsetTop;
    }
    clearInterval(timer);
    if (view.moving && shown) timer = setInterval(render, 1000);
  }

  /** Shows the script's state `s`, as it is now. */
  function show(s) {
    status = s;
    at = performance.now();
    render();
  }

  /** Stops the countdown (the panel is closed), or starts it again (opened). */
  function tick(on) {
    shown = on;
    clearInterval(timer);
    if (on && status) render();
  }

  addEventListener('script', e => show(JSON.parse(e.data))); // the stream's, from live.js
  return { set, show, tick };
}
