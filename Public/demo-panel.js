// The Demo panel: a dialog (a sheet at the bottom of a phone's screen) that steers the demo while
// it runs, through demo-api.js. demo-button.js imports this module on the first press of the
// header's Demo button; from then on the button opens the panel itself. The fields show the knobs
// as they are: read when the panel opens, then as the stream's `demo` events (live.js) tell of a
// change made anywhere, from this panel, another page or curl.
import * as demo from './demo-api.js';
import { failed } from './api.js';
import { el } from './dom.js';
import { demoTexts, fill } from './demo-texts.js';
import { adoptSheet } from './demo-sheet.js';

// Each knob's field: its name in the API and the range the server takes (docs/demo.md).
const KNOBS = {
  network: [['delayMs', 0, 600000, 50], ['jitterMs', 0, 600000, 50], ['failRate', 0, 1, 0.05]],
  items: [['newItemsEvery', 0, 86400, 1]],
};
const STATUSES = [503, 500, 429];

const button = document.getElementById('demo'), t = demoTexts();
const fields = new Map(); // knob name -> its <input>
const say = el('p', null, 'demo-say');
say.role = 'status';
const dialog = build();

/** A labelled number field for each knob of `group`, in a fieldset with `extra` after them. */
function group(legend, knobs, ...extra) {
  const set = el('fieldset');
  set.append(el('legend', t[legend]));
  for (const [name, min, max, step] of knobs) {
    const label = el('label', null), input = el('input');
    Object.assign(input, { type: 'number', name, min, max, step, inputMode: step < 1 ? 'decimal' : 'numeric' });
    input.addEventListener('input', () => { input.dataset.editing = 'yes'; });
    input.addEventListener('change', () => change(input));
    label.append(el('span', t[name]), input);
    set.append(label);
    fields.set(name, input);
  }
  set.append(...extra);
  return set;
}

function action(text, act) {
  const b = el('button', text);
  b.type = 'button';
  b.addEventListener('click', act);
  return b;
}

function build() {
  const d = el('dialog', null, 'demo'), head = el('div', null, 'demo-head'), body = el('div', null, 'demo-body');
  const title = el('h2', t.title), close = action('×', () => d.close());
  title.id = 'demo-title';
  close.ariaLabel = t.close;
  d.setAttribute('aria-labelledby', title.id);
  head.append(title, close);

  const status = el('select'), statusLabel = el('label', null, 'wide'); // the two buttons' status, above both
  status.name = 'status';
  for (const s of STATUSES) status.append(new Option(s, s));
  statusLabel.append(el('span', t.status), status);
  const failNext = (on, text) => action(t[text], () => act(demo.failNext(on, +status.value),
    () => fill(t[on === 'refresh' ? 'refreshFails' : 'pageFails'], { s: status.value })));

  body.append(
    group('network', KNOBS.network),
    group('faults', [], statusLabel, failNext('refresh', 'failRefresh'), failNext('page', 'failPage')),
    group('items', KNOBS.items, action(t.add, () => act(demo.addItems(3), () => t.added))),
    say);
  d.append(head, body);
  // A click on the backdrop (the dialog itself, outside its content) closes it, as a sheet's does.
  d.addEventListener('click', e => e.target === d && d.close());
  d.addEventListener('close', () => button.focus());
  addEventListener('demo', e => show(JSON.parse(e.data))); // the stream's, from live.js
  document.body.append(d);
  return d;
}

function open() {
  adoptSheet();
  tell('');
  dialog.showModal();
  demo.knobs().then(show, refused);
}

/** Shows `knobs` in the fields, but not over a number being typed. */
function show(knobs) {
  for (const [name, input] of fields) {
    if (input.dataset.editing && input === document.activeElement) continue;
    input.value = knobs[name];
    delete input.dataset.editing;
    input.removeAttribute('aria-invalid');
  }
}

function change(input) {
  delete input.dataset.editing;
  if (Number.isNaN(input.valueAsNumber)) return tell(fill(t.notNumber, { field: t[input.name] }), true);
  act(demo.change({ [input.name]: input.valueAsNumber }).then(show), () => t.saved);
}

/** Waits for `request`, then says what `done()` returns, or why it was refused. */
function act(request, done) {
  request.then(() => tell(done()), refused);
}

function tell(text, error = false) {
  say.textContent = text;
  say.classList.toggle('error', error);
}

/** Says why the server refused, in the panel's words: the fields it names and their ranges (a 400),
 *  a token it does not take (401), else that it could not be reached. */
function refused(e) {
  const wrong = e.status === 400 && e.fields.map(name => fields.get(name)).filter(Boolean);
  if (wrong?.length) {
    for (const input of wrong) input.ariaInvalid = 'true';
    const ranges = wrong.map(input => fill(t.range, { field: t[input.name], min: input.min, max: input.max }));
    return tell(failed([t.notChanged, ...ranges].join(' '), e), true);
  }
  tell(failed(e.status === 401 ? t.unauthorized : t.failed, e), true);
}

button.onclick = open;
open();
