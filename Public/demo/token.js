// Beyond loopback the Demo button waits for a token (button.js fetches this module there only).
// A presenter's URL brings it in its fragment, #demo=TOKEN, which browsers never send: it is
// taken out of the address bar at once (a shared screen or a copied link does not show it), kept
// for the session, and the button shown while the session has one. Opened in a tab that shows the
// feed already, the presenter's URL changes only the fragment: no load, a hashchange, and the same.
// The Doctor view (doctor.js) takes it the same way.
import { keepToken, token } from './api.js';

/** Takes the token the address brings, if it brings one; answers the token this session has. */
export function takeToken() {
  const given = new URLSearchParams(location.hash.slice(1)).get('demo');
  if (given) {
    history.replaceState(history.state, '', location.pathname + location.search);
    keepToken(given);
  }
  return token();
}

/** Takes the token the address brings, now and whenever its fragment changes, and shows
 *  `button` while this session has one. */
export function show(button) {
  const take = () => { button.hidden = !takeToken(); };
  addEventListener('hashchange', take);
  take();
}
