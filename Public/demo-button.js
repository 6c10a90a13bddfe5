// The header's Demo button, in the load every reader pays for, so as small as it can be: `/` has
// shown it where the demo API is open, and marked it data-demo="token" where a token is needed;
// demo-token.js then shows it once this session has one. The panel comes on the first press.
const button = document.getElementById('demo');
button.onclick = () => import('./demo-panel.js');
if (button.dataset.demo) import('./demo-token.js');
