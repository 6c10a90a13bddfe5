// The Demo panel's styles, which come with the panel and not with the page (sheet.js).
import { lazySheet } from '../sheet.js';

/** Adds the panel's styles to the document, once. */
export const adoptSheet = lazySheet(`
.demo { width: min(26rem, 100% - 2rem); max-height: 90dvh; padding: 0; border: 1px solid var(--line);
  border-radius: 14px; background: var(--card); color: var(--text); box-shadow: 0 8px 32px rgb(0 0 0 / .3); }
.demo::backdrop { background: rgb(0 0 0 / .4); }
.demo-head { display: flex; align-items: center; justify-content: space-between; gap: .5rem;
  padding: .5rem .5rem .5rem 1rem; border-bottom: 1px solid var(--line); }
.demo h2 { margin: 0; font-size: 1.05rem; }
.demo-head button { min-width: 2.75rem; min-height: 2.75rem; padding: 0; font-size: 1.4rem; line-height: 1;
  color: var(--text); background: transparent; }
.demo-body { display: grid; gap: 1rem; padding: 1rem; }
.demo fieldset { display: grid; grid-template-columns: 1fr 1fr; gap: .6rem; margin: 0; padding: 0; border: 0; }
.demo legend { margin-bottom: .4rem; padding: 0; font-size: .8rem; font-weight: 600; color: var(--muted);
  text-transform: uppercase; letter-spacing: .04em; }
.demo label { display: grid; gap: .2rem; font-size: .85rem; }
.demo input, .demo select { min-width: 0; min-height: 2.75rem; padding: 0 .6rem; font: inherit;
  border: 1px solid var(--line); border-radius: 8px; background: var(--bg); color: var(--text); }
.demo fieldset > button { min-height: 2.75rem; white-space: normal; }
.demo .wide { grid-column: 1 / -1; }
/* This device's profile: one button-like choice per preset, two by two on a phone. */
.demo-device label { position: relative; display: flex; align-items: center; justify-content: center; min-height: 2.75rem;
  padding: 0 .5rem; border: 1px solid var(--line); border-radius: 8px; background: var(--bg); text-align: center; cursor: pointer; }
.demo-device input { position: absolute; inset: 0; width: 100%; height: 100%; margin: 0; opacity: 0; cursor: pointer; }
.demo-device label:has(:checked) { background: var(--accent); border-color: var(--accent); color: var(--on-accent); font-weight: 600; }
.demo-device label:has(:focus-visible) { outline: 2px solid var(--accent); outline-offset: 2px; }
@media (min-width: 30.01rem) { .demo .demo-device { grid-template-columns: repeat(4, 1fr); } }
.demo label:not(.wide) + button { align-self: end; } /* level with the field beside it */
.demo [aria-invalid=true] { border-color: var(--danger); outline: 1px solid var(--danger); }
/* The script: its act, where it is, the buttons, and its steps with the next one marked. */
.demo .demo-script { grid-template-columns: 1fr; gap: .4rem; }
.demo-script [hidden] { display: none; }
.demo-act { margin: 0; font-size: 1.1rem; font-weight: 600; overflow-wrap: anywhere; }
.demo-act.none { font-weight: 400; font-size: .9rem; color: var(--muted); }
.demo-where { margin: 0; font-size: .85rem; color: var(--muted); font-variant-numeric: tabular-nums; }
.demo-play { display: grid; grid-template-columns: repeat(3, 1fr); gap: .5rem; }
.demo-play button { min-height: 2.75rem; }
.demo-play button:disabled { opacity: .4; cursor: default; }
.demo-steps { position: relative; max-height: 16rem; overflow-y: auto; margin: 0; padding: 0; list-style: none; font-size: .85rem;
  border: 1px solid var(--line); border-radius: 8px; }
.demo-steps li { display: grid; grid-template-columns: 6.5rem 1fr auto; gap: .5rem; padding: .35rem .6rem;
  border-top: 1px solid var(--line); }
.demo-steps li:first-child { border-top: 0; }
.demo-steps .when { color: var(--muted); font-variant-numeric: tabular-nums; }
.demo-steps .what { overflow-wrap: anywhere; }
.demo-steps .runs { color: var(--muted); font-variant-numeric: tabular-nums; }
.demo-steps .done { color: var(--muted); }
.demo-steps .next { background: color-mix(in srgb, var(--accent) 14%, var(--card)); font-weight: 600; }
.demo-steps .next .when { color: var(--text); }
/* What the last action did stays in sight when the panel is taller than the screen. */
.demo-say { position: sticky; bottom: 0; min-height: 1.45em; margin: 0; font-size: .9rem; color: var(--muted);
  background: var(--card); }
.demo-say.error { color: var(--danger); }
/* On a phone the panel is a sheet over the bottom of the screen, in reach of the thumb. */
@media (max-width: 30rem) {
  .demo { width: 100%; max-width: 100%; margin: auto 0 0; border-width: 1px 0 0; border-radius: 16px 16px 0 0;
    padding-bottom: env(safe-area-inset-bottom); }
}
`);
