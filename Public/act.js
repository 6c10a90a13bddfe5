// The current act of a demo script ("Act 2: bad network"), under the header's title where every
// viewer sees it, announced politely when it changes. It comes with the stream's `script` events
// (live.js passes them on to `window`); at load it is asked for once where the demo API is open
// to this page (the Demo button is shown without a token: loopback), else it shows from the
// script's next change on. The page's words stay the script's own.
const act = document.getElementById('act');

function show({ label }) {
  act.textContent = label || '';
  act.hidden = !label;
}

addEventListener('script', e => show(JSON.parse(e.data)));
const demo = document.getElementById('demo');
if (!demo.hidden && !demo.dataset.demo) {
  fetch('/api/demo/script').then(r => r.ok ? r.json() : {}).then(show, () => {});
}
