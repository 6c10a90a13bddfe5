// The demo control API (/api/demo, docs/demo.md), with this session's token when the server wants
// one. An answer that is not ok is thrown as an Error with its `status` and, for a 400, the names
// of the fields it refused (`fields`, from the problem's invalid_params).

const KEY = 'pulldown-demo-token';

/** The presenter's token this session has, if any (none where storage is off). */
export function token() {
  try { return sessionStorage.getItem(KEY); } catch { return null; }
}

/** Keeps `token` for this session: every demo request sends it. */
export function keepToken(token) {
  try { sessionStorage.setItem(KEY, token); } catch { /* no storage: no token, no button */ }
}

async function send(method, path, body, type = 'application/json') {
  const headers = body === undefined ? {} : { 'Content-Type': type }, bearer = token();
  if (bearer) headers.Authorization = `Bearer ${bearer}`;
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const json = await res.json().catch(() => ({}));
  if (res.ok) return json;
  const fields = (json.invalid_params || []).map(p => p.name);
  throw Object.assign(new Error(json.detail || json.title || res.statusText), { status: res.status, fields });
}

/** The knobs now: { delayMs, jitterMs, failRate, newItemsEvery }. */
export const knobs = () => send('GET', '/api/demo');
/** Changes the knobs `patch` names (a JSON merge patch); resolves to the knobs after it. */
export const change = patch => send('PATCH', '/api/demo', patch, 'application/merge-patch+json');
/** Fails the next request of kind `on` ('refresh' | 'page' | …) with `status`. */
export const failNext = (on, status) => send('POST', '/api/demo/faults', { on, status, count: 1 });
/** Adds `count` demo items now, pushed to every open page. */
export const addItems = count => send('POST', '/api/demo/items', { count });
