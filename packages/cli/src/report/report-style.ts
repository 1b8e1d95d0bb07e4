// The crawl report's stylesheet, inlined into the page (no external resource of any kind).

export const REPORT_CSS = `
:root { color-scheme: light; --ok: #15803d; --bad: #dc2626; --muted: #64748b; --line: #e2e8f0; --bg: #f8fafc; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #0f172a; background: var(--bg); }
main { max-width: 1020px; margin: 0 auto; padding: 24px 20px 48px; }
h1 { font-size: 24px; margin: 0 0 4px; }
h2 { font-size: 18px; margin: 32px 0 10px; padding-bottom: 4px; border-bottom: 2px solid var(--line); }
h3 { font-size: 16px; margin: 0 0 4px; }
h4 { font-size: 13px; margin: 14px 0 6px; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); }
.muted, .key { color: var(--muted); font-weight: normal; }
.key { font-size: 13px; margin-left: 4px; }
.url { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12px; word-break: break-all; }
code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12px; background: #f1f5f9; padding: 1px 4px; border-radius: 3px; }
.meta { color: var(--muted); margin: 0 0 16px; }
.banner { border-radius: 8px; padding: 14px 18px; margin: 16px 0; font-size: 16px; border: 1px solid; }
.banner.ok { background: #f0fdf4; border-color: #86efac; color: #14532d; }
.banner.bad { background: #fef2f2; border-color: #fca5a5; color: #7f1d1d; }
.banner.warn { background: #fffbeb; border-color: #fcd34d; color: #78350f; }
.banner.info { background: #eff6ff; border-color: #93c5fd; color: #1e3a8a; }
.banner small { display: block; font-size: 13px; margin-top: 4px; }
.cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(150px, 1fr)); gap: 10px; }
.card { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 10px 12px; }
.card b { display: block; font-size: 20px; }
.card span { color: var(--muted); font-size: 12px; }
table { border-collapse: collapse; width: 100%; background: #fff; border: 1px solid var(--line); border-radius: 6px; margin: 4px 0 8px; }
th, td { text-align: left; padding: 5px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
th { background: #f1f5f9; font-size: 12px; text-transform: uppercase; letter-spacing: .03em; color: #334155; }
table.compact { width: auto; min-width: 220px; }
td.num, th.num { text-align: right; }
.verdict { display: inline-block; min-width: 1.4em; text-align: center; font-weight: bold; border-radius: 4px; }
.ok, .verdict.ok { color: var(--ok); }
.bad, .verdict.bad { color: var(--bad); }
.outcome.unreachable { color: var(--bad); font-weight: 600; }
.outcome.unavailable { color: #b45309; }
.outcome.success { color: var(--ok); }
.host { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 14px 16px; margin: 14px 0; }
.facts { margin: 0 0 4px; }
.origins { margin: 0 0 8px; }
.cols { display: flex; gap: 24px; flex-wrap: wrap; }
svg { display: block; max-width: 100%; height: auto; }
svg.meter { display: inline-block; vertical-align: middle; }
svg .axis { font: 10px system-ui, sans-serif; fill: var(--muted); }
svg .tick { stroke: #f1f5f9; }
svg .baseline { stroke: #94a3b8; }
svg .mark { stroke-width: 1.5; }
svg .bar { fill: #22c55e; }
svg .bar.clipped { fill: #86efac; }
svg .bar.short { fill: var(--bad); }
svg .cut { fill: #14532d; }
table.glance td:nth-child(5), table.glance td:nth-child(6) { white-space: nowrap; }
svg .delay { stroke: #0f172a; stroke-width: 1.5; stroke-dasharray: 5 3; }
svg .delay-label { font: 11px system-ui, sans-serif; fill: #0f172a; }
.legend span { display: inline-block; margin-right: 14px; font-size: 12px; color: var(--muted); }
.legend i { display: inline-block; width: 10px; height: 10px; border-radius: 2px; margin-right: 4px; vertical-align: -1px; }
svg.overview .lane-label { font: 11px system-ui, sans-serif; fill: #0f172a; }
svg.overview a .lane-label { fill: #1d4ed8; }
table.not-crawled td:last-child, table.other-hosts td:first-child { word-break: break-word; }
footer { margin-top: 32px; color: var(--muted); font-size: 12px; }
`;
