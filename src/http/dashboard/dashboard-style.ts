/**
 * @module http/dashboard/dashboard-style
 * The dashboard's one stylesheet, served from /dashboard/style.css so the CSP can forbid every
 * inline style and script. Mobile first: one column on a phone; on a phone a table of actions
 * (devices, connected clients) stacks each row as a block, every cell labelled, so its buttons stay on
 * the screen, and the weekly chart is drawn at the phone's own scale so its labels stay readable.
 */
export const DASHBOARD_CSS = `
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI","PingFang SC","Microsoft YaHei",sans-serif;color:#1b1b1f;background:#f4f5f7}
header{background:#fff;border-bottom:1px solid #c9ccd3;padding:.6rem 1rem;display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:center}
header .brand{font-weight:700;margin-right:auto}
nav{display:flex;flex-wrap:wrap;gap:.25rem .9rem}
nav a[aria-current=page]{font-weight:700;text-decoration:underline}
main{max-width:60rem;margin:1rem auto;padding:0 1rem}
h1{font-size:1.4rem;margin:.5rem 0 1rem}
h2{font-size:1.1rem;margin:1.5rem 0 .5rem}
a{color:#0b57d0}
.card{background:#fff;border:1px solid #c9ccd3;border-radius:10px;padding:1rem;margin:0 0 1rem}
.grid{display:grid;grid-template-columns:repeat(auto-fit,minmax(13rem,1fr));gap:1rem}
table{border-collapse:collapse;width:100%}
td,th{text-align:left;padding:.3rem .5rem;border-bottom:1px solid #e3e5e9;vertical-align:top}
.scroll{overflow-x:auto;position:relative}
.muted{color:#4a4f5a;font-size:.9rem}
.flash{background:#e7f4ea;border:1px solid #1e7b34;padding:.5rem .8rem;border-radius:8px;margin:0 0 1rem}
.alert{background:#fdecea;border:1px solid #b3261e;color:#8c1d18;padding:.5rem .8rem;border-radius:8px;margin:0 0 1rem}
.memory{border-bottom:1px solid #e3e5e9;padding:.6rem 0}
.memory p{margin:.2rem 0;white-space:pre-wrap;overflow-wrap:anywhere}
.badge{display:inline-block;font-size:.8rem;padding:0 .4rem;border-radius:6px;background:#eef0f3;margin-right:.3rem}
.badge.quarantined{background:#fdecea}.badge.deleted,.badge.expired{background:#f3e8d0}.badge.superseded{background:#e8e6f6}
form.inline{display:inline}
form.filters{display:flex;flex-wrap:wrap;gap:.75rem;align-items:flex-end}
label{display:block;font-weight:600;margin:.6rem 0 .2rem}
form.filters label{margin:0;font-weight:400;font-size:.9rem}
input[type=text],input[type=search],input[type=password],input[type=number],select,textarea{font:inherit;padding:.45rem .55rem;border:1px solid #6b7080;border-radius:8px;width:100%;max-width:100%}
form.filters input,form.filters select{width:auto;min-width:8rem;height:2.6rem}
form.filters button{height:2.6rem;margin:0}
textarea{min-height:6rem}
button{font:inherit;font-weight:600;padding:.45rem 1rem;border-radius:8px;cursor:pointer;border:2px solid #0b57d0;background:#0b57d0;color:#fff;margin:.3rem .3rem .3rem 0}
button.secondary{background:#fff;color:#0b57d0}
button.danger{background:#fff;color:#b3261e;border-color:#b3261e}
:focus-visible{outline:3px solid #0b57d0;outline-offset:2px}
svg.chart{width:100%;height:auto;max-width:44rem}
.legend span{display:inline-block;margin-right:.8rem;font-size:.85rem}
.legend i{display:inline-block;width:.8rem;height:.8rem;margin-right:.25rem;vertical-align:-1px}
ol.history{padding-left:1.2rem}
pre{white-space:pre-wrap;overflow-wrap:anywhere;background:#f4f5f7;padding:.4rem;border-radius:6px;font-size:.8rem;margin:.2rem 0}
ol.history>li{margin:0 0 .8rem}ol.history p{margin:.1rem 0}
ul.changes{margin:.2rem 0;padding-left:1rem}
.field{font-weight:600;margin-right:.3rem}
.diff{white-space:pre-wrap;overflow-wrap:anywhere;background:#f4f5f7;padding:.4rem;border-radius:6px;margin:.2rem 0}
ins{background:#d7f0dc;color:#0d4a1d;text-decoration:underline}del{background:#fbe0dd;color:#7a1410;text-decoration:line-through}
.nowrap,.code,td.num{white-space:nowrap}
.code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.9rem}
td.num{text-align:right;font-variant-numeric:tabular-nums}
:lang(zh) body,:lang(zh) label,:lang(zh) td,:lang(zh) th,:lang(zh) button,:lang(zh) a{word-break:keep-all;overflow-wrap:break-word}
button,nav a{white-space:nowrap}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
form.filters label{display:flex;flex-direction:column;gap:.3rem}
footer{max-width:60rem;margin:2rem auto 1rem;padding:0 1rem}
form.tz{display:flex;flex-wrap:wrap;gap:.5rem;align-items:center}
form.tz label{margin:0;font-weight:400;font-size:.9rem}form.tz select{width:auto;max-width:16rem}
ul.entities{list-style:none;margin:0;padding:0}ul.entities>li{border-bottom:1px solid #e3e5e9;padding:.6rem 0}
ul.entities p{margin:.2rem 0}.entity-name{overflow-wrap:anywhere;font-weight:600}
ul.relations{margin:.2rem 0;padding-left:1.1rem;overflow-wrap:anywhere}ul.relations li{margin:.1rem 0}
.predicate{color:#4a4f5a}
.grid>*{min-width:0}
td.code{white-space:normal;overflow-wrap:anywhere}
svg.chart.narrow{display:none}
@media (max-width:40rem){header{padding:.5rem}main{padding:0 .5rem}td,th{padding:.25rem}form.filters input,form.filters select{min-width:0;width:100%}form.filters label{flex:1 1 100%}
table.stack thead{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
table.stack tr{display:block;border-bottom:1px solid #e3e5e9;padding:.4rem 0}
table.stack td{display:block;border:0;padding:.1rem 0;overflow-wrap:anywhere}
table.stack td[data-label]::before{content:attr(data-label) ": ";font-weight:600;color:#4a4f5a}
svg.chart.wide{display:none}svg.chart.narrow{display:block}}
`;
