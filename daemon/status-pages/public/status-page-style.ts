import { createHash } from 'node:crypto';

/**
 * The public page's only style sheet, inline so the page is one small request; the page's
 * Content-Security-Policy allows exactly this text by its hash, and nothing else runs or loads.
 */
export const STATUS_PAGE_CSS = `
:root{color-scheme:light dark;--bg:#fff;--fg:#1b1f24;--muted:#5b6470;--card:#f6f8fa;--border:#d5d9df;--up:#1a7f37;--degraded:#9a6700;--down:#cf222e;--none:#d5d9df;--blue:#0969da}
@media (prefers-color-scheme:dark){:root{--bg:#0d1117;--fg:#e6edf3;--muted:#9aa3ad;--card:#161b22;--border:#30363d;--up:#3fb950;--degraded:#d29922;--down:#f85149;--none:#30363d;--blue:#1f6feb}}
*{box-sizing:border-box}body{margin:0;background:var(--bg);color:var(--fg);font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
main{max-width:52rem;margin:0 auto;padding:1.5rem 1rem}h1{font-size:1.6rem;margin:0 0 .25rem}h2{font-size:1.15rem;margin:2rem 0 .75rem}
.description{color:var(--muted);margin:0 0 1rem}.overall{border:1px solid var(--border);border-left-width:.5rem;border-radius:.5rem;padding:.75rem 1rem;font-weight:600;background:var(--card)}
.s-up,.s-operational{border-left-color:var(--up)}.s-degraded{border-left-color:var(--degraded)}.s-down,.s-partial-outage,.s-major-outage{border-left-color:var(--down)}
ul.checks{list-style:none;margin:0;padding:0}ul.checks>li{border:1px solid var(--border);border-radius:.5rem;padding:.75rem 1rem;margin:0 0 .75rem;background:var(--card)}
.check-head{display:flex;flex-wrap:wrap;justify-content:space-between;gap:.25rem 1rem}.name{font-weight:600;overflow-wrap:anywhere}
.state{white-space:nowrap}.state::before{display:inline-block;width:1.1em;text-align:center;margin-right:.25rem;font-weight:700}
.state.up::before{content:"✓";color:var(--up)}.state.degraded::before{content:"!";color:var(--degraded)}.state.down::before{content:"✕";color:var(--down)}.state.paused::before,.state.pending::before{content:"–";color:var(--muted)}.state.maintenance::before{content:"⚙";color:var(--muted)}
.bar{display:flex;gap:1px;height:2rem;margin:.5rem 0 .25rem;padding:0;list-style:none}.bar li{flex:1;border-radius:1px;background:var(--none)}
.bar .d-up{background:var(--up)}.bar .d-degraded{background:var(--degraded)}.bar .d-down{background:var(--down)}
.bar-legend{display:flex;justify-content:space-between;color:var(--muted);font-size:.85rem}
ol.incidents{list-style:none;padding:0;margin:0}ol.incidents li{border-left:3px solid var(--border);padding:.25rem .75rem;margin:0 0 .75rem}
.muted,footer{color:var(--muted);font-size:.9rem}footer{margin-top:2rem}a{color:inherit}
.u-state{display:inline-block;border-radius:1rem;padding:0 .6rem;font-size:.8rem;font-weight:600;color:#fff;background:var(--muted);white-space:nowrap}
.u-investigating{background:var(--down)}.u-identified{background:var(--degraded)}.u-monitoring{background:var(--blue)}.u-maintenance{background:var(--blue)}.u-resolved{background:var(--up)}
ol.updates{list-style:none;margin:0;padding:0}li.update{border:1px solid var(--border);border-radius:.5rem;padding:.75rem 1rem;margin:0 0 .75rem;background:var(--card)}
.update-body p{margin:.5rem 0}.update-body ul{margin:.5rem 0;padding-left:1.5rem}.update-body code{font-size:.9em;background:var(--bg);border:1px solid var(--border);border-radius:.25rem;padding:0 .25rem}
li.update>p.muted{margin:.25rem 0 0}.update-head{display:flex;flex-wrap:wrap;align-items:center;gap:.25rem .5rem;overflow-wrap:anywhere}
form.subscribe{display:flex;flex-wrap:wrap;align-items:center;gap:.5rem}form.subscribe input{flex:1 1 14rem;min-width:0;font:inherit;padding:.4rem .6rem;border:1px solid var(--border);border-radius:.4rem;background:var(--bg);color:var(--fg)}
button{font:inherit;padding:.4rem .9rem;border:1px solid var(--border);border-radius:.4rem;background:var(--card);color:var(--fg);cursor:pointer}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
`.trim();

/** The page's Content-Security-Policy: its own style sheet by hash, no scripts, no framing; `data:` images only for the empty icon that spares browsers a request for /favicon.ico. */
export const STATUS_PAGE_CSP = [
  "default-src 'none'",
  `style-src 'sha256-${createHash('sha256').update(STATUS_PAGE_CSS).digest('base64')}'`,
  'img-src data:',
  "base-uri 'none'",
  // The subscription form posts to the page's own address.
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');
