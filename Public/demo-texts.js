// The Demo panel's words, [English, Simplified Chinese] side by side: fetched with the panel, so
// the page everyone loads carries only the button's (i18n.js).
const TEXTS = {
  title: ['Demo', '演示'],
  close: ['Close', '关闭'],
  network: ['Every API answer', '所有接口响应'],
  delayMs: ['Delay (ms)', '延迟（毫秒）'],
  jitterMs: ['Jitter (ms)', '抖动（毫秒）'],
  failRate: ['Failure rate (0 to 1)', '失败率（0 到 1）'],
  faults: ['Once', '一次性故障'],
  status: ['Status', '状态码'],
  failRefresh: ['Fail the next refresh', '让下一次刷新失败'],
  failPage: ['Fail the next page', '让下一页加载失败'],
  items: ['New items', '新内容'],
  newItemsEvery: ['Every (s, 0: never)', '间隔（秒，0 为不生成）'],
  add: ['Add 3 items now', '立即添加 3 条'],
  saved: ['Changed.', '已更改。'],
  refreshFails: ['The next refresh fails with {s}.', '下一次刷新将返回 {s}。'],
  pageFails: ['The next page fails with {s}.', '下一页将返回 {s}。'],
  added: ['3 items added.', '已添加 3 条。'],
  notChanged: ['Not changed.', '未更改。'],
  range: ['{field}: {min} to {max}.', '{field}：{min} 到 {max}。'],
  notNumber: ['{field}: a number, please.', '{field}：请输入数字。'],
  unauthorized: ["The demo token was not accepted. Open the presenter's link again.", '演示令牌未被接受，请重新打开演示者链接。'],
  failed: ["Couldn't reach the demo controls.", '无法连接演示控制。'],
};

/** The panel's texts for the page's language (feed.js sets <html lang>). */
export function demoTexts() {
  const at = document.documentElement.lang === 'zh-CN' ? 1 : 0;
  return Object.fromEntries(Object.entries(TEXTS).map(([key, words]) => [key, words[at]]));
}

/** `text` with each {key} replaced by `values[key]`. */
export const fill = (text, values) => text.replace(/\{(\w+)\}/g, (_, k) => values[k]);
