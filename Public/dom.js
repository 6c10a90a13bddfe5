// The one DOM helper the page's scripts share. Text goes in with textContent only.

/** A new `tag` element with `text` (if any) and class `cls` (if any). */
export const el = (tag, text, cls) => {
  const n = document.createElement(tag);
  if (text != null) n.textContent = text;
  if (cls) n.className = cls;
  return n;
};
