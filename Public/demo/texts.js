// The demo's words in English, the Demo panel's and the post form's; texts-zh.js has them in
// Simplified Chinese, fetched only by its readers (i18n.js's inLang). They come with the panel or
// the form, so the page everyone loads carries only the button's and the form's summary (i18n.js).
import { inLang } from '../i18n.js';

export const EN = {
  heading: 'Demo',
  close: 'Close',
  device: 'This device',
  none: 'None',
  '3g': '3G',
  'flaky-wifi': 'Flaky Wi\u2011Fi', // a non-breaking hyphen and space: a narrow button breaks
  'offline-10s': 'Offline 10\u00a0s', // between the words, not inside these
  noneOn: 'This device has a fast network again.',
  '3gOn': 'This device is on 3G: pages and pictures come slowly.',
  'flaky-wifiOn': 'This device is on flaky Wi-Fi: answers stall now and then.',
  'offline-10sOn': 'This device is offline for 10 s.',
  online: 'This device is online again.',
  network: 'Every API answer',
  delayMs: 'Delay (ms)',
  jitterMs: 'Jitter (ms)',
  failRate: 'Failure rate',
  faults: 'Once',
  status: 'Status',
  failRefresh: 'Fail the next refresh',
  failPage: 'Fail the next page',
  items: 'New items',
  newItemsEvery: 'Every (s, 0: never)',
  add: 'Add 3 items now',
  changes: 'Edits and deletions',
  editsPerMinute: 'Edits a minute',
  deletesPerMinute: 'Deletions a minute',
  churn: 'Edit 3, delete 1 now',
  saved: 'Changed.',
  refreshFails: 'The next refresh fails with {s}.',
  pageFails: 'The next page fails with {s}.',
  added: '3 items added.',
  churned: '3 items edited, 1 deleted.',
  notChanged: 'Not changed.',
  space: ' ', // between two sentences
  range: '{field}: between {min} and {max}.',
  notNumber: '{field}: a number, please.',
  unauthorized: "The demo token was not accepted. Open the presenter's link again.",
  failed: "Couldn't reach the demo controls.",
  doctor: 'Client doctor: what the apps calling this server did wrong',
  // The post form
  title: 'Title',
  body: 'Text',
  author: 'Author',
  post: 'Post',
  posted: 'Posted. Pull down to see it.',
  postFailed: "Couldn't post.",
  noTitle: "Couldn't post: an item needs a title.",
};

/** The demo's texts in `lang`, the page's language. */
export const demoTexts = lang => inLang(lang, EN, () => import('./texts-zh.js'));
