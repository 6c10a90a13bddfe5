// Beyond loopback the Demo button waits for a token (demo-button.js fetches this module there
// only). A presenter's URL brings it in its fragment, #demo=TOKEN, which browsers never send: it
// is taken out of the address bar at once (a shared screen or a copied link does not show it),
// kept for the session, and the button shown while the session has one.
import { keepToken, token } from './demo-api.js';

const given = new URLSearchParams(location.hash.slice(1)).get('demo');
if (given) {
  history.replaceState(history.state, '', location.pathname + location.search);
  keepToken(given);
}
document.getElementById('demo').hidden = !token();
