// The Demo panel: a dialog (a sheet at the bottom of a phone's screen) that steers the demo while
// it runs, through api.js. button.js imports this module on the first press of the header's Demo
// button and calls `open` on every press. The fields show the knobs as they are: read when the
// panel opens, then as the stream's `demo` events (live.js passes them on to `window`) tell of a
// change made anywhere, from this panel, another page or curl. What each knob and a queued fault
// may be is read from the server's OpenAPI document, where the server's own limits are written.
// "This device" puts the page's own session on a network profile; the stream's `demo` events
// that name a client tell of profile changes (this page's own, made here or elsewhere, and the
// end of an offline time). The Script part (script-view.js) shows the loaded script as a
// timeline and plays it, following the stream's `script` events the same way.
import * as demo from './api.js';
import { failed } from '../api.js';
import { el } from '../dom.js';
import { fill } from '../i18n.js';
import { demoTexts } from './texts.js';
import { adoptSheet } from './sheet.js';
import { scriptView } from './script-view.js';

// The knobs' fields by group, each with the step its arrows take.
const KNOBS = {
  network: [['delayMs', 50], ['jitterMs', 50], ['failRate', 0.05]],
  items: [['newItemsEvery', 1]],
  changes: [['editsPerMinute', 10], ['deletesPerMinute', 10]],
  paging: [['shortPages', 0.05], ['cursorTtlSeconds', 60]],
};
// The network profiles this device may pick for itself (the server's presets).
const PRESETS = ['none', '3g', 'flaky-wifi', 'offline-10s'];

let made; // the panel, once the first `open` has its texts
let limited; // its fields' limits, once read: asked again at the next open after a failure (offline)

/** Opens the panel, made the first time in the texts of `t.lang`; closing it gives the focus
 *  back to `button`. */
export async function open(button, t) {
  adoptSheet();
  const knobs = demo.knobs();
  made ||= demoTexts(t.lang).then(texts => make(button, texts, t.locale));
  const panel = await made;
  limited ||= demo.limits().then(panel.limit, () => { limited = null; });
  panel.tell('');
  if (!panel.dialog.open) panel.dialog.showModal();
  panel.script.tick(true);
  knobs.then(panel.show, panel.refused);
  // As a `script` event: the page's act line (act.js) takes it too, whatever its stream missed.
  demo.script().then(s => dispatchEvent(new MessageEvent('script', { data: JSON.stringify(s) })), () => {});
  demo.profile().then(panel.device, () => {});
}

function make(button, t, locale) {
  const fields = new Map(); // knob name -> its <input>
  const presets = new Map(); // preset name -> its radio button
  let me, back; // this page's client id, once the server has said it; the offline timer
  const say = el('p', null, 'demo-say');
  say.role = 'status';

  /** A labelled number field for each knob of `group`, in a fieldset with `extra` after them. */
  function group(legend, knobs, ...extra) {
    const set = el('fieldset');
    set.append(el('legend', t[legend]));
    for (const [name, step] of knobs) {
      const label = el('label', null), input = el('input');
      Object.assign(input, { type: 'number', name, step, inputMode: step < 1 ? 'decimal' : 'numeric' });
      input.addEventListener('input', () => { input.dataset.editing = 'yes'; });
      input.addEventListener('change', () => change(input));
      label.append(el('span', t[name]), input);
      set.append(label);
      fields.set(name, input);
    }
    set.append(...extra);
    return set;
  }

  /** This device's network profile: a radio button for each preset. */
  function deviceGroup() {
    const set = el('fieldset', null, 'demo-device');
    set.append(el('legend', t.device));
    for (const preset of PRESETS) {
      const label = el('label', null), input = el('input');
      Object.assign(input, { type: 'radio', name: 'profile', value: preset });
      input.addEventListener('change', () => act(demo.setProfile(preset).then(device), () => t[`${preset}On`]));
      label.append(input, el('span', t[preset]));
      set.append(label);
      presets.set(preset, input);
    }
    return set;
  }

  /** Checks the preset `client` (this page's) is on: none for a custom profile set elsewhere.
   *  Offline, the page's stream is gone too, so the panel asks again once the time should be
   *  over (at most `offlineFor` from now, whatever this device's clock says). */
  function device(client) {
    const was = me && presets.get('offline-10s').checked, { profile } = client;
    me = client.client;
    for (const [name, input] of presets) input.checked = name === (profile ? profile.preset : 'none');
    clearTimeout(back);
    if (profile?.offlineUntil) {
      const left = Math.min(profile.offlineFor * 1000, Math.max(0, Date.parse(profile.offlineUntil) - Date.now()));
      back = setTimeout(() => demo.profile().then(device, () => {}), left + 250);
    } else if (was) tell(t.online);
  }

  function action(text, act) {
    const b = el('button', text);
    b.type = 'button';
    b.addEventListener('click', act);
    return b;
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

  /** Says why the server refused, in the panel's words: the fields it names and their ranges (a
   *  400), a token it does not take (401), else that it could not be reached. */
  function refused(e) {
    const wrong = e.status === 400 && (e.problem.invalid_params || []).map(p => fields.get(p.name)).filter(Boolean);
    if (wrong?.length) {
      for (const input of wrong) input.ariaInvalid = 'true';
      const number = x => (+x).toLocaleString(locale);
      const said = wrong.map(input => fill(t.range, { field: t[input.name], min: number(input.min), max: number(input.max) }));
      return tell(failed([t.notChanged, ...said].join(t.space), e), true);
    }
    tell(failed(e.status === 401 ? t.unauthorized : t.failed, e), true);
  }

  const d = el('dialog', null, 'demo'), head = el('div', null, 'demo-head'), body = el('div', null, 'demo-body');
  const title = el('h2', t.heading), close = action('×', () => d.close());
  title.id = 'demo-title';
  close.ariaLabel = t.close;
  d.setAttribute('aria-labelledby', title.id);
  head.append(title, close);

  const status = el('select'), statusLabel = el('label', null, 'wide'); // the two buttons' status, above both
  status.name = 'status';
  statusLabel.append(el('span', t.status), status);
  const failNext = (on, text) => action(t[text], () => act(demo.failNext(on, +status.value),
    () => fill(t[on === 'refresh' ? 'refreshFails' : 'pageFails'], { s: status.value })));

  const script = scriptView(t, act, action);
  body.append(
    script.set,
    deviceGroup(),
    group('network', KNOBS.network),
    group('faults', [], statusLabel, failNext('refresh', 'failRefresh'), failNext('page', 'failPage')),
    group('items', KNOBS.items, action(t.add, () => act(demo.addItems(3), () => t.added))),
    group('changes', KNOBS.changes, action(t.churn, () => act(demo.churn(3, 1), () => t.churned))),
    group('paging', KNOBS.paging),
    say, Object.assign(el('a', t.doctor), { href: '/doctor.html' })); // the Doctor view, in this tab: it keeps the token
  d.append(head, body);
  // A click on the backdrop (the dialog itself, outside its content) closes it, as a sheet's does.
  d.addEventListener('click', e => e.target === d && d.close());
  d.addEventListener('close', () => { script.tick(false); button.focus(); });
  addEventListener('demo', e => { // the stream's, from live.js: the knobs, or a client's profile
    const data = JSON.parse(e.data);
    if (!('client' in data)) show(data);
    else if (data.client === me) device(data);
  });
  document.body.append(d);

  /** What the server takes (api.js's `limits`): each knob's range, a fault's statuses. */
  function limit({ ranges, statuses }) {
    for (const [name, [min, max]] of Object.entries(ranges)) fields.has(name) && Object.assign(fields.get(name), { min, max });
    status.replaceChildren(...statuses.map(s => new Option(s, s)));
  }
  return { dialog: d, show, refused, tell, device, script, limit };
}
