// One item on its own page, the target of an article's link; Back returns to the feed where it was.
import * as api from './api.js';
import { pickLang, texts } from './i18n.js';
import { el } from './dom.js';
import { article } from './article.js';

const t = await texts(pickLang(location.search, navigator.languages));
document.documentElement.lang = t.lang === 'zh' ? 'zh-CN' : 'en';
const id = +new URLSearchParams(location.search).get('id'), back = document.getElementById('back');
back.textContent = t.back;
back.href = `/${location.search.replace(/[?&]id=\d*/, '').replace(/^&/, '?')}`;
// Going back, rather than to a new feed, is what brings the reader to where they were.
back.addEventListener('click', e => { if (history.length > 1) { e.preventDefault(); history.back(); } });

const main = document.getElementById('item');
api.items({ before: id + 1, limit: 1 }).then(p => {
  const item = p.items[0];
  main.append(item?.id === id ? article(item, t.lang === 'zh' ? 'zh-CN' : 'en-US') : el('p', t.notFound));
}, e => main.append(el('p', api.failed(t.loadFailed, e))));
