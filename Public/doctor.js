// The Doctor view: what the server's client doctor (docs/doctor.md) found each client of the API
// doing wrong, live. The clients come from GET /api/doctor (again every few seconds while the view
// is shown), each finding as it is made from /api/doctor/events, and a client's last requests from
// GET /api/doctor/{id} while its timeline is open. The stream is read with fetch, which, unlike
// EventSource, sends the demo token the doctor needs beyond loopback (from the presenter's link,
// #demo=TOKEN, as on the feed).
import { send } from './api.js';
import { el } from './dom.js';
import { takeToken } from './demo/token.js';

const list = document.getElementById('clients'), say = document.getElementById('say'), live = document.getElementById('live');
const cards = new Map(); // client id -> its card: { section, head, who, findings, details, timeline, seen }
let stopped = false; // the doctor refused (off, or a token this view lacks): no more asking
let watching = false; // the stream is being read, or waited for

const ask = path => {
  const bearer = takeToken();
  return send(path, { headers: bearer ? { Authorization: `Bearer ${bearer}` } : {} });
};

/** "12:01:02.345", local time. */
const clock = iso => {
  const d = new Date(iso);
  return `${d.toLocaleTimeString('en-GB', { hour12: false })}.${String(d.getMilliseconds()).padStart(3, '0')}`;
};

/** One request in a line: "GET /api/items?before=26 → 200 at 12:01:02.345". */
const line = r => `${r.method} ${r.url} → ${r.status} at ${clock(r.at)}`;

function tell(text, error = false) {
  say.textContent = text;
  say.classList.toggle('error', error);
}

/** Why the doctor would not answer, in words; stops asking when asking again cannot help. */
function refused(e) {
  stopped = e.status === 401 || e.status === 404;
  tell(e.status === 401 ? "This server listens beyond loopback: open the presenter's link (…#demo=TOKEN) first, then this view."
    : e.status === 404 ? 'The client doctor is off on this server (--doctor off).'
      : "Couldn't reach the server; trying again.", true);
}

function finding(f) {
  const a = el('div', null, 'finding'), head = el('p'), count = el('span', `×${f.count}`, 'count');
  head.append(el('span', f.rule, 'rule'), count);
  count.ariaLabel = `${f.count} time${f.count === 1 ? '' : 's'}`;
  const seen = el('p'), example = el('code', line(f.example));
  seen.append('Latest: ', example);
  if (f.because) seen.append(el('br'), 'Because of: ', el('code', line(f.because)));
  a.append(head, el('h3', f.title), el('p', f.advice), seen,
    el('span', `First ${clock(f.firstSeen)}, last ${clock(f.lastSeen)} · ${f.docs}`, 'seen'));
  return a;
}

/** The card of client `c`, made the first time, its text replaced every time after. */
function show(c) {
  let card = cards.get(c.id);
  if (!card) {
    const section = el('section', null, 'client'), details = el('details'), timeline = el('ol', null, 'timeline');
    section.dataset.id = c.id;
    details.append(el('summary', 'Last requests'), timeline);
    details.addEventListener('toggle', () => details.open && loadTimeline(c.id));
    card = { section, head: el('h2'), who: el('p', null, 'who'), findings: el('div'), details, timeline };
    section.append(card.head, card.who, card.findings, details);
    section.setAttribute('aria-labelledby', (card.head.id = `client-${c.id}`));
    cards.set(c.id, card);
  }
  const text = JSON.stringify(c);
  if (card.seen === text) return card;
  card.seen = text;
  card.head.textContent = c.session ? `Session ${c.session}…` : `${c.address}`;
  card.who.textContent = [c.session && c.address, c.userAgent || 'no User-Agent',
    `${c.requests} request${c.requests === 1 ? '' : 's'}`, `last at ${clock(c.lastSeen)}`].filter(Boolean).join(' · ');
  card.findings.replaceChildren(...(c.findings.length ? c.findings.map(finding)
    : [el('p', `Nothing wrong in ${c.requests === 1 ? 'its request' : `its ${c.requests} requests`}.`, 'none')]));
  if (card.details.open) loadTimeline(c.id);
  return card;
}

async function loadTimeline(id) {
  const card = cards.get(id);
  try {
    const { timeline } = await ask(`/api/doctor/${id}`);
    card.timeline.replaceChildren(...timeline.slice().reverse().map(row));
    card.details.querySelector('summary').textContent = `Last ${timeline.length} request${timeline.length === 1 ? '' : 's'}, newest first`;
  } catch (e) {
    card.timeline.replaceChildren(el('li', e.status === 404 ? 'The doctor no longer keeps this client.' : "Couldn't load them."));
  }
}

/** One request of the timeline: when, what, how it was answered, and the rule it broke. */
function row(r) {
  const li = el('li', null, r.rule ? 'bad' : ''), status = el('span', String(r.status), 'status');
  status.classList.toggle('failed', r.status >= 400);
  const said = [r.cursor, r.ifNoneMatch && 'If-None-Match', r.lastEventId != null && `Last-Event-ID ${r.lastEventId}`,
    r.retryAfter != null && `Retry-After ${r.retryAfter}`, r.hasMore != null && `hasMore ${r.hasMore}`,
    r.gap != null && `gap ${r.gap}`].filter(Boolean).join(' · ');
  li.append(el('span', clock(r.at)), el('span', r.method), status, el('span', `${r.durationMs} ms`, 'ms'), el('span', r.url, 'url'));
  if (said) li.append(el('span', said, 'said'));
  if (r.rule) li.append(el('span', r.rule, 'broke'));
  return li;
}

/** Every client, the one seen last first. */
async function load() {
  if (stopped || document.hidden) return;
  try {
    const { clients, limits } = await ask('/api/doctor');
    list.replaceChildren(...clients.map(c => show(c).section));
    tell(clients.length ? `${clients.length} client${clients.length === 1 ? '' : 's'} (the doctor keeps the last ${limits.clients}, `
      + `${limits.requests} requests each).` : 'No client has called the API yet. Open the feed, or point an app at this server\'s /api/.');
  } catch (e) {
    refused(e);
  }
}

/** Reads `event: doctor`s as they come; after a drop (or a refusal that may pass) waits and
 *  opens again, reloading the list for what came meanwhile. */
async function watch() {
  if (watching) return;
  watching = true;
  for (let wait = 1000; !stopped;) {
    try {
      const bearer = takeToken(), res = await fetch('/api/doctor/events', { headers: bearer ? { Authorization: `Bearer ${bearer}` } : {} });
      if (res.status === 401 || res.status === 404) break;
      if (res.ok) {
        wait = 1000;
        live.hidden = false;
        load();
        const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
        for (let text = '', end; ;) {
          const { value, done } = await reader.read();
          if (done) break;
          text += value;
          while ((end = text.indexOf('\n\n')) >= 0) {
            event(text.slice(0, end));
            text = text.slice(end + 2);
          }
        }
      } else wait = Math.max(wait, (+res.headers.get('Retry-After') || 5) * 1000);
    } catch { /* the server went away: try again */ }
    live.hidden = true;
    await new Promise(done => setTimeout(done, wait));
    wait = Math.min(2 * wait, 30e3);
  }
  watching = false;
}

/** One block of the stream: a `doctor` event moves its client to the top, as it is now. */
function event(block) {
  const fields = Object.fromEntries(block.split('\n').filter(l => l && l[0] !== ':')
    .map(l => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 1).trimStart()]));
  if (fields.event !== 'doctor') return;
  list.prepend(show(JSON.parse(fields.data).client).section);
}

/** Asks again from the start: at load, and when the presenter's link brings a token to this tab. */
function begin() {
  stopped = false;
  load();
  watch();
}

begin();
setInterval(load, 5000);
document.addEventListener('visibilitychange', load);
addEventListener('hashchange', () => takeToken() && begin());
