// The current act of a demo script ("Act 2: bad network"), under the header's title where every
// viewer sees it, announced politely when it changes. It comes with the stream's `script` events
// (live.js passes them on to `window`): the server opens every stream with one while a script is
// loaded, so a page that just opened or reconnected shows the act too, with or without the demo
// token. The page's words stay the script's own.

/** Shows in `line` the label of each `script` event the page hears. */
export function actLine(line) {
  addEventListener('script', e => {
    const { label } = JSON.parse(e.data);
    line.textContent = label || '';
    line.hidden = !label;
  });
}
