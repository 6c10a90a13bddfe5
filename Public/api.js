// The JSON API, same origin. Errors arrive as application/problem+json and are thrown as Error
// with the problem's detail (or title) as message and the HTTP status as `status`.

// Demo knobs on the page URL (?_delay=MS, ?_fail=500) are passed on to every API call.
const knobs = new URLSearchParams([...new URLSearchParams(location.search)].filter(([k]) => k[0] === '_'));

function url(path) {
  const q = new URLSearchParams(path.split('?')[1]);
  knobs.forEach((v, k) => q.set(k, v));
  return path.split('?')[0] + (q.size ? `?${q}` : '');
}

async function call(path, body) {
  const init = body === undefined ? {} :
    { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) };
  const res = await fetch(url(path), init);
  const json = await res.json().catch(() => ({}));
  if (!res.ok) throw Object.assign(new Error(json.detail || json.title || res.statusText), { status: res.status });
  return json;
}

/** The reader gets the page's own words (`text`, returned); the problem's detail is for the
 *  developer, in the console. */
export const failed = (text, e) => (console.error(`${text} ${e.message}`), text);

/** A page of items, newest first: { items, limit, hasMore }. Without a `limit`, the server's page
 *  size: the one the newest page in `/` has too. */
export const items = (params = {}) =>
  call(`/api/items?${new URLSearchParams(Object.entries(params).filter(([, v]) => v != null))}`);
/** Items newer than `after`: { items, gap, lastUpdated }. */
export const refresh = after => call('/api/refresh', { after });
/** This browser session: { lastUpdated, lastSeenId, refreshCount }. */
export const session = () => call('/api/session');
/** Adds an item: { title, body, author } -> the item. */
export const post = item => call('/api/items', item);
/** The stream of items newer than `after` as they are posted (`items` events of { items, gap }). */
export const events = after => new EventSource(url(`/api/events?after=${after}`));
