/**
 * @module http/oauth/consent-messages
 * Every string of the authorization page, in English and Chinese (what is wrong with a presented
 * credential is in sign-in-messages.ts, shared with the dashboard), and the choice between them:
 * `?lang=` (or the form's `lang` field) first, then the browser's Accept-Language.
 */
import type { SignInProblem } from "./sign-in";
import { SIGN_IN_PROBLEMS, SIGN_IN_TOO_MANY } from "./sign-in-messages";

export type ConsentLocale = "en" | "zh";

export interface ConsentMessages {
  htmlLang: string;
  otherLocale: ConsentLocale;
  otherLanguageName: string;
  /** Between two sentences: a space in English, nothing in Chinese. */
  sentenceGap: string;
  title: (client: string) => string;
  heading: (client: string) => string;
  publishedBy: (domain: string) => string;
  unverified: string;
  sendsTo: (host: string) => string;
  loopbackWarning: string;
  accessLegend: string;
  accessWrite: string;
  accessWriteHint: string;
  accessRead: string;
  accessReadHint: string;
  credentialLabel: string;
  credentialLabelWithPassphrase: string;
  credentialHint: string;
  approve: string;
  deny: string;
  signInFailed: string;
  problems: Record<SignInProblem | "access_invalid", string>;
  errorTitle: string;
  expired: string;
  invalidRequest: string;
  crossSite: string;
  tooMany: string;
  /** Workers Free's KV writes of the day are spent (http/oauth/kv-daily-limit.ts). */
  kvDailyLimit: string;
  unavailable: string;
  startAgain: string;
}

const en: ConsentMessages = {
  htmlLang: "en",
  otherLocale: "zh",
  otherLanguageName: "中文",
  sentenceGap: " ",
  title: (client) => `Connect ${client} to Hippocampus`,
  heading: (client) => `Allow ${client} to use your Hippocampus memory?`,
  publishedBy: (domain) => `Published by ${domain}.`,
  unverified: "This app registered itself; its name is not verified.",
  sendsTo: (host) => `If you approve, access is sent to ${host}.`,
  loopbackWarning:
    "This sends access to an app on your own computer. Continue only if you just started connecting from it.",
  accessLegend: "What may it do?",
  accessWrite: "Read and write",
  accessWriteHint: "Recall your memories, and save, change or delete them (memory:read memory:write).",
  accessRead: "Read only",
  accessReadHint: "Recall and browse your memories, never change them (memory:read).",
  credentialLabel: "Your Hippocampus user key",
  credentialLabelWithPassphrase: "Your Hippocampus user key or passphrase",
  credentialHint:
    "A user key starts with hc_. It only proves who you are and is not given to the app; revoking it later disconnects the app.",
  approve: "Approve",
  deny: "Deny",
  signInFailed: "Could not sign in",
  problems: { ...SIGN_IN_PROBLEMS.en, access_invalid: "Choose what the app may do." },
  errorTitle: "This authorization cannot continue",
  expired: "This page has expired, was already used, or was opened in another browser.",
  invalidRequest: "The app sent an authorization request that cannot be accepted:",
  crossSite: "The form was sent from another site, so it was refused.",
  tooMany: SIGN_IN_TOO_MANY.en,
  kvDailyLimit:
    "Sign-in is paused until 00:00 UTC: this server's Cloudflare account has used its 1,000 storage writes of the day (Workers Free's KV limit). Nothing stored is lost; try again after the reset, or connect with an API key meanwhile.",
  unavailable: "Sign-in is not available on this server right now.",
  startAgain: "Go back to the app and start connecting again.",
};

const zh: ConsentMessages = {
  htmlLang: "zh-CN",
  otherLocale: "en",
  otherLanguageName: "English",
  sentenceGap: "",
  title: (client) => `将 ${client} 连接到 Hippocampus`,
  heading: (client) => `允许 ${client} 使用你的 Hippocampus 记忆吗？`,
  publishedBy: (domain) => `发布者：${domain}。`,
  unverified: "此应用自行注册，名称未经验证。",
  sendsTo: (host) => `批准后，访问权限将发送到 ${host}。`,
  loopbackWarning: "访问权限将发送到你本机上的应用。只有在你刚刚从该应用发起连接时才继续。",
  accessLegend: "允许它做什么？",
  accessWrite: "读取和写入",
  accessWriteHint: "检索你的记忆，并保存、修改或删除记忆（memory:read memory:write）。",
  accessRead: "只读",
  accessReadHint: "检索和浏览你的记忆，但不能修改（memory:read）。",
  credentialLabel: "你的 Hippocampus 用户密钥",
  credentialLabelWithPassphrase: "你的 Hippocampus 用户密钥或口令",
  credentialHint: "用户密钥以 hc_ 开头。它只用于证明你的身份，不会交给该应用；之后吊销密钥即可断开该应用。",
  approve: "批准",
  deny: "拒绝",
  signInFailed: "无法登录",
  problems: { ...SIGN_IN_PROBLEMS.zh, access_invalid: "请选择允许该应用做什么。" },
  errorTitle: "无法继续此授权",
  expired: "此页面已过期、已被使用，或是在另一个浏览器中打开的。",
  invalidRequest: "应用发送的授权请求无法接受：",
  crossSite: "表单来自其他网站，已被拒绝。",
  tooMany: SIGN_IN_TOO_MANY.zh,
  kvDailyLimit:
    "登录暂停至 UTC 00:00：此服务器的 Cloudflare 账户今天已用完 1,000 次存储写入（Workers Free 的 KV 限额）。已保存的内容不会丢失；请在重置后再试，或先用 API 密钥连接。",
  unavailable: "此服务器当前无法登录。",
  startAgain: "请返回应用，重新开始连接。",
};

export function consentMessages(locale: ConsentLocale): ConsentMessages {
  return locale === "zh" ? zh : en;
}

function localeOf(tag: string): ConsentLocale | null {
  const lower = tag.trim().toLowerCase();
  if (lower === "zh" || lower.startsWith("zh-")) return "zh";
  if (lower === "en" || lower.startsWith("en-")) return "en";
  return null;
}

/** The first of en/zh by Accept-Language q-value (RFC 9110 §12.5.4); English when neither appears. */
export function pickLocale(
  explicit: string | null | undefined,
  acceptLanguage: string | null | undefined,
): ConsentLocale {
  const chosen = explicit ? localeOf(explicit) : null;
  if (chosen) return chosen;
  const ranked = (acceptLanguage ?? "")
    .split(",")
    .map((part, index) => {
      const [tag, ...params] = part.split(";");
      const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)).find(Boolean);
      return { locale: localeOf(tag), q: q ? Number(q[1]) : 1, index };
    })
    .filter((r) => r.locale !== null && r.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  return ranked[0]?.locale ?? "en";
}
