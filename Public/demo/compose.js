// The demo's "Post an item" form, built the first time the reader opens it (feed.js imports this
// module then), with its styles and words, so the page everyone loads carries none of them.
import * as api from '../api.js';
import { el } from '../dom.js';
import { lazySheet } from '../sheet.js';
import { demoTexts } from './texts.js';

const adoptSheet = lazySheet(`
.compose form { display: grid; gap: .5rem; background: var(--card); border: 1px solid var(--line); border-radius: 12px;
  padding: .8rem 1rem; margin-bottom: var(--gap); }
.compose label { display: grid; gap: .2rem; }
.compose input, .compose textarea { font: inherit; padding: .4rem; border: 1px solid var(--line); border-radius: 6px;
  background: var(--bg); color: var(--text); }
.compose form > button { justify-self: start; }
.compose [aria-invalid=true] { border-color: var(--danger); outline: 1px solid var(--danger); }
`);

const FIELDS = [['title', 'input', 200], ['body', 'textarea', 2000], ['author', 'input', 80]];

/** Puts the form into `details` (whose <summary> says "Post an item"), in the language `lang`. */
export async function compose(details, lang) {
  const t = await demoTexts(lang);
  adoptSheet();
  const form = el('form'), out = el('output');
  form.id = 'compose';
  out.id = 'compose-status';
  for (const [name, tag, max] of FIELDS) {
    const label = el('label'), field = el(tag);
    Object.assign(field, { name, maxLength: max, required: name === 'title' });
    if (tag === 'textarea') field.rows = 3;
    label.append(el('span', t[name]), ' ', field);
    form.append(label);
  }
  form.append(el('button', t.post), ' ', out);
  form.addEventListener('submit', async e => {
    e.preventDefault();
    const item = Object.fromEntries([...new FormData(form)].filter(([, v]) => v.trim()));
    const title = form.elements.title;
    title.removeAttribute('aria-invalid');
    out.classList.remove('error');
    try {
      await api.post(item);
      form.reset();
      out.textContent = t.posted;
    } catch (err) {
      // A title of spaces passes `required` and is refused by the server, which names the field.
      const untitled = err.problem?.invalid_params?.some(p => p.name === 'title');
      if (untitled) {
        title.ariaInvalid = 'true';
        title.focus();
      }
      out.textContent = api.failed(untitled ? t.noTitle : t.postFailed, err);
      out.classList.add('error'); // in the refresh banner's look
    }
  });
  details.append(form);
}
