// The demo control API (/api/demo, docs/demo.md), with this session's token when the server wants
// one, through api.js's `send` (an answer that is not ok is thrown with its `status` and its
// `problem`, whose invalid_params name the fields a 400 refused). The demo endpoints take no page
// knobs.
import { json, send } from '../api.js';

const KEY = 'pulldown-demo-token';

/** The presenter's token this session has, if any (none where storage is off). */
export function token() {
  try { return sessionStorage.getItem(KEY); } catch { return null; }
}

/** Keeps `token` for this session: every demo request sends it. */
export function keepToken(token) {
  try { sessionStorage.setItem(KEY, token); } catch { /* no storage: no token, no button */ }
}

const demo = (method, path, body, type) => {
  const bearer = token(), headers = bearer ? { Authorization: `Bearer ${bearer}` } : {};
  return send(path, body === undefined ? { method, headers } : json(body, method, headers, type));
};

/** The knobs now: { delayMs, jitterMs, failRate, newItemsEvery, editsPerMinute, deletesPerMinute,
 *  shortPages, cursorTtlSeconds }. */
export const knobs = () => demo('GET', '/api/demo');
/** Changes the knobs `patch` names (a JSON merge patch); resolves to the knobs after it. */
export const change = patch => demo('PATCH', '/api/demo', patch, 'application/merge-patch+json');
/** Fails the next request of kind `on` ('refresh' | 'page' | …) with `status`. */
export const failNext = (on, status) => demo('POST', '/api/demo/faults', { on, status, count: 1 });
/** Adds `count` demo items now, pushed to every open page. */
export const addItems = count => demo('POST', '/api/demo/items', { count });
/** This page's own client and its network profile: { client, lastSeen, profile }. */
export const profile = () => demo('GET', '/api/demo/profile');
/** Puts this page's session on the network profile `preset` ('none' takes it off). */
export const setProfile = preset => demo('PUT', '/api/demo/profile', { preset });
/** Edits `edits` items and deletes `deletes` others now, pushed to every open page. */
export const churn = (edits, deletes) => demo('POST', '/api/demo/churn', { edits, deletes });

/** The loaded script's state: its steps, which is next and when, its label ('idle' while none is). */
export const script = () => demo('GET', '/api/demo/script');
/** Plays, pauses or restarts the loaded script (`what`: 'play', 'pause' or 'restart'); resolves
 *  to its state after it. */
export const control = what => demo('POST', `/api/demo/script/${what}`);

/** What the server takes, as its OpenAPI document says (the one place it is written down):
 *  { ranges: knob name -> [minimum, maximum], statuses: a queued fault's statuses, its default
 *  first, then the others highest first }. */
export async function limits() {
  const { DemoKnobs, NewDemoFault } = (await send('/api/openapi.json')).components.schemas;
  const status = NewDemoFault.properties.status;
  return {
    ranges: Object.fromEntries(Object.entries(DemoKnobs.properties).map(([name, p]) => [name, [p.minimum, p.maximum]])),
    statuses: [status.default, ...status.enum.filter(s => s !== status.default).sort((a, b) => b - a)],
  };
}
