// One item on its own page, the target of an article's link; Back returns to the feed where it was.
import * as api from './api.js';
import { pageTexts, DATED } from './i18n.js';
import { el } from './dom.js';
import { article, tell } from './article.js';

const t = await pageTexts();
const id = +new URLSearchParams(location.search).get('id'), back = document.getElementById('back');
back.href = `/${location.search.replace(/[?&]id=\d*/, '').replace(/^&/, '?')}`;
// Going back, rather than to a new feed, is what brings the reader to where they were.
back.addEventListener('click', e => { if (history.length > 1) { e.preventDefault(); history.back(); } });

const main = document.getElementById('item');
api.item(id).then(item => {
  const a = article(item, t);
  tell(a.querySelector('time'), t.locale, new Date(), DATED); // no day header here: an old post shows its date
  const link = el('a', t.inFeed, 'in-feed');
  link.href = `/${location.search.replace(/[?&]id=\d*/, '').replace(/^&/, '?')}#item=${item.id}`;
  main.append(a, link);
}, e => main.append(el('p', e.status === 404 ? t.notFound : e.status === 410 ? t.deleted : api.failed(t.loadFailed, e))));
