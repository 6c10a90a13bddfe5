import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EN, pickLang, texts, stamp, dayNumber, dayStart, dayLabel, when, inLang, fill, DATED } from '../../Public/i18n.js';
import zhTexts from '../../Public/i18n-zh.js';
import { EN as DEMO_EN, demoTexts } from '../../Public/demo/texts.js';
import demoZh from '../../Public/demo/texts-zh.js';

const en = await texts('en'), zh = await texts('zh');

test('the lang parameter wins over the browser languages', () => {
  assert.equal(pickLang('?lang=zh', ['en-US']), 'zh');
  assert.equal(pickLang('?lang=en', ['zh-CN']), 'en');
  assert.equal(pickLang('?lang=zh-CN', ['en-US']), 'zh', 'a tag, as the page writes its own lang');
  assert.equal(pickLang('?lang=ZH-hans', ['en-US']), 'zh');
  assert.equal(pickLang('?lang=en-GB', ['zh-CN']), 'en');
});

test('browser languages pick the first one we have', () => {
  assert.equal(pickLang('', ['fr-FR', 'zh-CN', 'en']), 'zh');
  assert.equal(pickLang('', ['zh-Hans-CN']), 'zh');
  assert.equal(pickLang('', ['en-GB']), 'en');
});

test('unknown languages fall back to English', () => {
  assert.equal(pickLang('?lang=xx', ['de']), 'en');
  assert.equal(pickLang(undefined, undefined), 'en');
});

test('stamp is MM/dd/yyyy hh:mm AM in local time', () => {
  assert.equal(stamp(new Date(2026, 10, 30, 7, 41)), '11/30/2026 07:41 AM');
  assert.equal(stamp(new Date(2026, 0, 2, 0, 5)), '01/02/2026 12:05 AM');
  assert.equal(stamp(new Date(2026, 0, 2, 12, 0)), '01/02/2026 12:00 PM');
  assert.equal(stamp(new Date(2026, 0, 2, 23, 59)), '01/02/2026 11:59 PM');
});

test('last updated text, and its absence', () => {
  const d = new Date(2026, 10, 30, 7, 41);
  assert.equal(en.updated(d), 'Last updated on 11/30/2026 07:41 AM');
  assert.equal(en.updated(null), 'Not updated yet');
  assert.equal(zh.updated(d), '最后更新：11/30/2026 07:41 AM');
});

test('new item counts in both languages', () => {
  assert.deepEqual([en.n(0), en.n(1), en.n(3)], ['No new items', '1 new item', '3 new items']);
  assert.deepEqual([zh.n(0), zh.n(1), zh.n(3)], ['没有新内容', '1 条新内容', '3 条新内容']);
});

test('a count the stream could not complete says "more than"', () => {
  assert.equal(en.n(10, true), '10+ new items');
  assert.equal(zh.n(10, true), '10+ 条新内容');
  assert.equal(en.n(1, false), '1 new item');
});

test('the seed texts in Chinese', () => {
  assert.equal(zh.pull, '下拉可以刷新');
  assert.equal(zh.release, '松开立即刷新');
  assert.equal(zh.loading, '加载中…');
});

test('Chinese has every text, and a language we do not have is English', async () => {
  assert.deepEqual(Object.keys(zhTexts).sort(), Object.keys(EN).sort());
  const fr = await texts('fr');
  assert.equal(fr.lang, 'en');
  assert.equal(fr.pull, en.pull);
});

test('each language writes its dates and times in its locale, one we do not have in English\'s', async () => {
  assert.equal(en.locale, 'en-US');
  assert.equal(zh.locale, 'zh-CN');
  assert.equal((await texts('fr')).locale, 'en-US');
});

test('every set of texts is English with the Chinese laid over it, for a Chinese reader only', async () => {
  let fetched = 0;
  const zhOf = async () => (fetched++, { default: { a: '甲' } });
  assert.deepEqual(await inLang('zh', { a: 'A', b: 'B' }, zhOf), { a: '甲', b: 'B' }, 'a text it lacks stays English');
  assert.deepEqual(await inLang('en', { a: 'A' }, zhOf), { a: 'A' });
  assert.equal(fetched, 1, 'an English reader fetches no Chinese');
  assert.deepEqual(Object.keys(demoZh).sort(), Object.keys(DEMO_EN).sort(), 'the Demo panel has every text in Chinese');
  assert.equal((await demoTexts('zh')).heading, '演示');
  assert.equal((await demoTexts('en')).heading, 'Demo');
});

test('a text is filled by the names in its braces', () => {
  assert.equal(fill('{field}: {min} to {max}.', { field: 'Delay', min: 0, max: 9 }), 'Delay: 0 to 9.');
});

test('day numbers are local calendar days', () => {
  const day = dayNumber(new Date(2026, 10, 30, 23, 59));
  assert.equal(dayNumber(new Date(2026, 10, 30, 0, 0)), day);
  assert.equal(dayNumber(new Date(2026, 11, 1, 0, 0)), day + 1);
  assert.equal(dayNumber(new Date(1970, 0, 1, 12)), 0);
});

test('a day number gives back its local midnight', () => {
  const day = dayNumber(new Date(2026, 2, 29, 15, 0));
  assert.deepEqual(dayStart(day), new Date(2026, 2, 29));
  assert.equal(dayNumber(dayStart(day)), day);
});

test('day labels: Today, Yesterday, then the date', () => {
  const now = new Date(2026, 11, 1, 8, 0);
  assert.equal(dayLabel(new Date(2026, 11, 1, 0, 1), now, en), 'Today');
  assert.equal(dayLabel(new Date(2026, 10, 30, 23, 59), now, en), 'Yesterday');
  assert.equal(dayLabel(new Date(2026, 10, 30, 1, 0), now, zh), '昨天');
  const older = dayLabel(new Date(2026, 10, 28, 12, 0), now, en);
  assert.match(older, /Nov/);
  assert.match(older, /28/);
  assert.match(older, /2026/);
});

test('times within a day say how long ago, in the reader\'s language; older ones their clock time', () => {
  const at = new Date(2026, 11, 1, 8, 0), ago = ms => new Date(at - ms);
  assert.equal(when(ago(0), at, 'en-US'), 'now');
  assert.equal(when(ago(59e3), at, 'en-US'), 'now');
  assert.equal(when(new Date(+at + 30e3), at, 'en-US'), 'now', 'ahead of the reader\'s clock');
  assert.equal(when(ago(60e3), at, 'en-US'), '1 minute ago');
  assert.equal(when(ago(2 * 60e3 + 59e3), at, 'en-US'), '2 minutes ago');
  assert.equal(when(ago(59 * 60e3), at, 'en-US'), '59 minutes ago');
  assert.equal(when(ago(3600e3), at, 'en-US'), '1 hour ago');
  assert.equal(when(ago(23 * 3600e3 + 59 * 60e3), at, 'en-US'), '23 hours ago');
  assert.equal(when(ago(24 * 3600e3), at, 'en-US'), '08:00 AM', 'a day ago: the clock time');
  assert.equal(when(ago(24 * 3600e3), at, 'en-US', DATED), 'Nov 30, 2026, 08:00 AM', 'with its date, where no header says it');
  assert.equal(when(ago(24 * 3600e3), at, 'zh-CN', DATED), '2026年11月30日 08:00');
  assert.equal(when(ago(60e3), at, 'en-US', DATED), '1 minute ago', 'within a day, how long ago all the same');
  assert.equal(when(ago(0), at, 'zh-CN'), '现在');
  assert.equal(when(ago(2 * 60e3), at, 'zh-CN'), '2分钟前');
  assert.equal(when(ago(3 * 3600e3), at, 'zh-CN'), '3小时前');
});
