/**
 * @module http/oauth/consent-page
 * HTML of the authorization page and its error page: small, no script, one stylesheet under a
 * per-response nonce. Everything that came from the client (name, domain, redirect host) is
 * escaped: a registering client chooses those strings. Accessibility: real labels, a fieldset
 * for the access choice, the first field focused, errors announced and tied to the field,
 * visible focus rings, and text contrast of at least 4.5:1.
 */
import type { ConsentLocale, ConsentMessages } from "./consent-messages";
import { consentMessages } from "./consent-messages";
import type { AccessLevel } from "./oauth-scopes";
import type { SignInProblem } from "./sign-in";

/** What the page shows about a request; kept beside the consent handle so a failed sign-in can re-render it. */
export interface ConsentView {
  clientName: string;
  clientDomain?: string;
  redirectHost: string;
  /** The code goes to an app on this computer: a loopback address or a native app's own scheme (cursor://). */
  toLocalApp: boolean;
  levels: AccessLevel[];
  /** The authorization request URL, for the language switch (a new page, a new handle). */
  authorizeUrl: string;
}

export interface ConsentPageInput {
  view: ConsentView;
  handle: string;
  locale: ConsentLocale;
  passphraseEnabled: boolean;
  nonce: string;
  problem?: SignInProblem | "access_invalid";
  selected?: AccessLevel;
}

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

const STYLE = `
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI","PingFang SC","Microsoft YaHei",sans-serif;color:#1b1b1f;background:#f4f5f7}
main{max-width:34rem;margin:2rem auto;padding:1.75rem;background:#fff;border:1px solid #c9ccd3;border-radius:12px}
h1{font-size:1.35rem;line-height:1.3;margin:0 0 1rem}
p{margin:.5rem 0}
.muted{color:#4a4f5a}
.warn{background:#fff4e5;border:1px solid #a35a00;color:#5c3200;padding:.6rem .8rem;border-radius:8px}
.alert{background:#fdecea;border:1px solid #b3261e;color:#8c1d18;padding:.6rem .8rem;border-radius:8px;margin:1rem 0}
fieldset{border:1px solid #c9ccd3;border-radius:8px;margin:1.25rem 0;padding:.75rem 1rem}
legend{font-weight:600;padding:0 .25rem}
.choice{display:flex;gap:.6rem;align-items:flex-start;margin:.5rem 0}
.choice input{flex:none;margin:.3rem 0 0;width:1.1rem;height:1.1rem}
.choice small{display:block;color:#4a4f5a}
label.field{display:block;font-weight:600;margin:1.25rem 0 .35rem}
input[type=password]{width:100%;padding:.6rem .7rem;font:inherit;border:1px solid #6b7080;border-radius:8px}
input[aria-invalid=true]{border-color:#b3261e;border-width:2px}
.hint{font-size:.9rem;color:#4a4f5a;margin-top:.35rem}
.actions{display:flex;gap:.75rem;margin-top:1.5rem;flex-wrap:wrap}
button{font:inherit;font-weight:600;padding:.6rem 1.4rem;border-radius:8px;cursor:pointer;border:2px solid #0b57d0}
button.primary{background:#0b57d0;color:#fff}
button.secondary{background:#fff;color:#0b57d0}
a{color:#0b57d0}
:focus-visible{outline:3px solid #0b57d0;outline-offset:2px}
.lang{text-align:right;font-size:.9rem;margin:0 0 .5rem}
code{font-family:ui-monospace,monospace;background:#eef0f3;padding:0 .2rem;border-radius:4px}`;

function shell(m: ConsentMessages, title: string, nonce: string, body: string): string {
  return `<!doctype html>
<html lang="${m.htmlLang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title>
<style nonce="${nonce}">${STYLE}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>`;
}

function languageLink(view: ConsentView, m: ConsentMessages): string {
  const url = new URL(view.authorizeUrl);
  url.searchParams.set("lang", m.otherLocale);
  const lang = m.otherLocale === "zh" ? "zh-CN" : "en";
  return `<p class="lang"><a href="${escapeHtml(url.pathname + url.search)}" hreflang="${lang}" lang="${lang}">${m.otherLanguageName}</a></p>`;
}

function clientFacts(view: ConsentView, m: ConsentMessages): string {
  const origin = view.clientDomain ? m.publishedBy(`<strong>${escapeHtml(view.clientDomain)}</strong>`) : m.unverified;
  const parts = [
    `<p class="muted">${origin}${m.sentenceGap}${m.sendsTo(`<strong>${escapeHtml(view.redirectHost)}</strong>`)}</p>`,
  ];
  if (view.toLocalApp) parts.push(`<p class="warn" role="note">${escapeHtml(m.loopbackWarning)}</p>`);
  return parts.join("\n");
}

function accessChoice(view: ConsentView, m: ConsentMessages, selected: AccessLevel): string {
  const option = (level: AccessLevel) => {
    const [label, hint] = level === "write" ? [m.accessWrite, m.accessWriteHint] : [m.accessRead, m.accessReadHint];
    const id = `access-${level}`;
    return `<div class="choice"><input type="radio" id="${id}" name="access" value="${level}"${level === selected ? " checked" : ""} aria-describedby="${id}-hint">
<label for="${id}">${escapeHtml(label)}<small id="${id}-hint">${escapeHtml(hint)}</small></label></div>`;
  };
  return `<fieldset><legend>${escapeHtml(m.accessLegend)}</legend>\n${view.levels.map(option).join("\n")}\n</fieldset>`;
}

export function renderConsentPage(input: ConsentPageInput): string {
  const m = consentMessages(input.locale);
  const { view } = input;
  const client = escapeHtml(view.clientName);
  const selected = input.selected && view.levels.includes(input.selected) ? input.selected : view.levels[0];
  const label = input.passphraseEnabled ? m.credentialLabelWithPassphrase : m.credentialLabel;
  const alert = input.problem
    ? `<div class="alert" role="alert" id="credential-error"><strong>${escapeHtml(m.signInFailed)}:</strong> ${escapeHtml(m.problems[input.problem])}</div>`
    : "";
  const invalid = input.problem && input.problem !== "access_invalid";
  const body = `${languageLink(view, m)}
<h1>${m.heading(`<span class="client">${client}</span>`)}</h1>
${clientFacts(view, m)}
${alert}
<form method="post" action="/authorize">
<input type="hidden" name="handle" value="${escapeHtml(input.handle)}">
<input type="hidden" name="lang" value="${input.locale}">
${accessChoice(view, m, selected)}
<label class="field" for="credential">${escapeHtml(label)}</label>
<input type="password" id="credential" name="credential" autocomplete="off" spellcheck="false" required autofocus aria-describedby="${invalid ? "credential-error " : ""}credential-hint"${invalid ? ' aria-invalid="true"' : ""}>
<p class="hint" id="credential-hint">${escapeHtml(m.credentialHint)}</p>
<div class="actions">
<button type="submit" class="primary" name="decision" value="approve">${escapeHtml(m.approve)}</button>
<button type="submit" class="secondary" name="decision" value="deny" formnovalidate>${escapeHtml(m.deny)}</button>
</div>
</form>`;
  return shell(m, m.title(view.clientName), input.nonce, body);
}

export function renderErrorPage(locale: ConsentLocale, nonce: string, message: string, detail?: string): string {
  const m = consentMessages(locale);
  const body = `<h1>${escapeHtml(m.errorTitle)}</h1>
<div class="alert" role="alert">${escapeHtml(message)}${detail ? ` <code>${escapeHtml(detail)}</code>` : ""}</div>
<p>${escapeHtml(m.startAgain)}</p>`;
  return shell(m, m.errorTitle, nonce, body);
}

/** Headers every authorization page carries: no framing, no caching, no script at all. */
export function pageHeaders(nonce: string, base?: Headers): Headers {
  const headers = new Headers(base);
  headers.set("Content-Type", "text/html; charset=utf-8");
  headers.set("Cache-Control", "no-store");
  headers.set(
    "Content-Security-Policy",
    `default-src 'none'; style-src 'nonce-${nonce}'; frame-ancestors 'none'; base-uri 'none'`,
  );
  headers.set("X-Frame-Options", "DENY");
  headers.set("X-Content-Type-Options", "nosniff");
  headers.set("Referrer-Policy", "no-referrer");
  return headers;
}

export function newNonce(): string {
  return [...crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, "0")).join("");
}
