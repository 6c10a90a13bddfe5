// Styles that come with a part of the page loaded on first use (the Demo panel, the post form)
// rather than with the page: a stylesheet made by the script, since the page's policy allows no
// inline style and a constructed sheet is none.

/** Returns a function that adds `css` to the document, once however often it is called. */
export function lazySheet(css) {
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(css);
  return () => {
    if (!document.adoptedStyleSheets.includes(sheet)) document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
  };
}
