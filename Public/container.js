// A second page for the reusable module: a scroll container with a nested scroller.
import { PullToRefresh } from './pull-to-refresh.js';

const $ = id => document.getElementById(id);
let count = 0;
for (let i = 1; i <= 40; i++) $('rows').append(Object.assign(document.createElement('li'), { textContent: `Row ${i}` }));
for (let i = 1; i <= 30; i++) $('inner').append(Object.assign(document.createElement('p'), { textContent: `Inner line ${i}` }));

const ptr = new PullToRefresh($('content'), {
  scroller: $('box'),
  onRefresh: () => new Promise(done => setTimeout(() => {
    $('count').textContent = `Refreshed ${++count} times`;
    done(`Refreshed ${count} times`);
  }, 300)),
});
ptr.setLastUpdated('Not updated yet');
$('refresh').addEventListener('click', () => ptr.beginRefreshing());
