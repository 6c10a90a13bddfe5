// The JSON API, same origin. Errors arrive as application/problem+json and are thrown as Error
// with the problem's detail (or title) as message, the HTTP status as `status` and the problem
// itself (RFC 9457: type, title, detail, invalid_params…) as `problem`.

// Demo knobs on the page URL (?_delay=MS, ?_fail=500) are passed on to every feed API call.
const knobs = new URLSearchParams([...new URLSearchParams(location.search)].filter(([k]) => k[0] === '_'));

function url(path) {
  const q = new URLSearchParams(path.split('?')[1]);
  knobs.forEach((v, k) => q.set(k, v));
  return path.split('?')[0] + (q.size ? `?${q}` : '');
}

// A 429 or 503 says in Retry-After how long to wait before asking the same again: until then, the
// same request (a Try again, another pull) waits, whoever sends it (docs/doctor.md, retry-too-soon).
const notBefore = new Map(); // method and URL -> performance.now() from which it may be sent again

/** One request (`init` as fetch takes it); resolves to the answer's JSON (as `take(json, res)`
 *  makes it). The one fetch the page, the Demo panel (demo/api.js) and the Doctor view make. */
export async function send(path, init, take = json => json) {
  const key = `${init?.method || 'GET'} ${path}`;
  // A timer's delay is whole milliseconds (a fraction is cut off) and may end a little early of
  // performance.now(): wait again until the time has really passed.
  for (let wait; (wait = (notBefore.get(key) ?? 0) - performance.now()) > 0;)
    await new Promise(done => setTimeout(done, Math.ceil(wait)));
  const res = await fetch(path, init), json = await res.json().catch(() => ({}));
  const after = +res.headers.get('Retry-After');
  if (after > 0) notBefore.set(key, performance.now() + after * 1000); else notBefore.delete(key);
  if (res.ok) return take(json, res);
  throw Object.assign(new Error(json.detail || json.title || res.statusText), { status: res.status, problem: json });
}

/** What `send` takes to send `body` as JSON of `type`, by `method`, with `headers`. */
export const json = (body, method = 'POST', headers = {}, type = 'application/json') =>
  ({ method, headers: { ...headers, 'Content-Type': type }, body: JSON.stringify(body) });

// The client doctor knows a client by its session (docs/doctor.md): until the session's first
// answer is in (and with it the cookie every later request carries), the page's other requests
// wait for it, so that none goes out without it.
let named = Promise.resolve();
const call = (path, body, take) => named.then(() => send(url(path), body && json(body), take));

/** Resolves once the session is known (or could not be): then requests carry it. */
export const sessionKnown = () => named;

/** The reader gets the page's own words (`text`, returned); the problem's detail is for the
 *  developer, in the console. */
export const failed = (text, e) => (console.error(`${text} ${e.message}`), text);

/** A page of items, newest first: { items, limit, hasMore, issued }. Without a `limit`, the
 *  server's page size: the one the newest page in `/` has too. `issued`: when the server issued
 *  the page's cursors (its links' `issued=`, while the demo's cursors expire), else undefined. */
export const items = (params = {}) =>
  call(`/api/items?${new URLSearchParams(Object.entries(params).filter(([, v]) => v != null))}`, null,
    (page, res) => ({ ...page, issued: +res.headers.get('Link')?.match(/[?&]issued=(\d+)/)?.[1] || undefined }));
/** The edits and deletions since `since`: { changed, hasMore, changes } (a 410 once too old). */
export const changes = since => call(`/api/changes?since=${since}&limit=1000`);
/** One item, as it is now (a 410 once deleted). */
export const item = id => call(`/api/items/${id}`);
/** Items newer than `after`, and the edits and deletions since `changes`: { items, gap,
 *  lastUpdated, changes, changed }. */
export const refresh = (after, changes) => call('/api/refresh', { after, changes: changes || null });
/** This browser session: { lastUpdated, lastSeenId, refreshCount }. The page's other requests
 *  wait for its answer. */
export function session() {
  const asked = send(url('/api/session'));
  named = asked.then(() => {}, () => {});
  return asked;
}
/** Adds an item: { title, body, author } -> the item. */
export const post = item => call('/api/items', item);
/** The stream of what happens after `after` (a point of the server's sequence): `items` events of
 *  { items, gap } as items are posted, `updated` (the item) and `deleted` ({ id }) as they change. */
export const events = after => new EventSource(url(`/api/events?after=${after}`));
