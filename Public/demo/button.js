// The header's Demo button, in the load every reader pays for, so as small as it can be: `/` has
// shown it where the demo API is open, and marked it data-demo="token" where a token is needed;
// token.js then shows it once this session has one. The panel comes on the first press.

/** Makes `button` open the Demo panel, in the page's texts `t`. */
export function demoButton(button, t) {
  button.onclick = () => import('/demo/panel.js').then(panel => panel.open(button, t));
  if (button.dataset.demo) import('/demo/token.js').then(token => token.show(button));
}
