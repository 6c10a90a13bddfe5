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

/** One request (`init` as fetch takes it); resolves to the answer's JSON. The one fetch the page
 *  and the Demo panel (demo/api.js) make. */
export async function send(path, init) {
  const res = await fetch(path, init), json = await res.json().catch(() => ({}));
  if (res.ok) return json;
  throw Object.assign(new Error(json.detail || json.title || res.statusText), { status: res.status, problem: json });
}

/** What `send` takes to send `body` as JSON of `type`, by `method`, with `headers`. */
export const json = (body, method = 'POST', headers = {}, type = 'application/json') =>
  ({ method, headers: { ...headers, 'Content-Type': type }, body: JSON.stringify(body) });

const call = (path, body) => send(url(path), body && json(body));

/** The reader gets the page's own words (`text`, returned); the problem's detail is for the
 *  developer, in the console. */
export const failed = (text, e) => (console.error(`${text} ${e.message}`), text);

/** A page of items, newest first: { items, limit, hasMore }. Without a `limit`, the server's page
 *  size: the one the newest page in `/` has too. */
export const items = (params = {}) =>
  call(`/api/items?${new URLSearchParams(Object.entries(params).filter(([, v]) => v != null))}`);
/** One item, as it is now (a 410 once deleted). */
export const item = id => call(`/api/items/${id}`);
/** Items newer than `after`, and the edits and deletions since `changes`: { items, gap,
 *  lastUpdated, changes, changed }. */
export const refresh = (after, changes) => call('/api/refresh', { after, changes: changes || null });
/** This browser session: { lastUpdated, lastSeenId, refreshCount }. */
export const session = () => call('/api/session');
/** Adds an item: { title, body, author } -> the item. */
export const post = item => call('/api/items', item);
/** The stream of what happens after `after` (a point of the server's sequence): `items` events of
 *  { items, gap } as items are posted, `updated` (the item) and `deleted` ({ id }) as they change. */
export const events = after => new EventSource(url(`/api/events?after=${after}`));
