/**
 * @module http/oauth/sign-in-messages
 * What is wrong with a credential a person presented, in English and Chinese: one sentence per
 * problem, said the same on the OAuth authorization page (consent-messages.ts) and the dashboard's
 * sign-in (dashboard/dashboard-messages.ts), which both sign in through sign-in.ts.
 */
import { API_KEY_HEX_CHARS, API_KEY_PREFIX } from "../../accounts/api-key-format";
import type { SignInProblem } from "./sign-in";

export const SIGN_IN_PROBLEMS: Record<"en" | "zh", Record<SignInProblem, string>> = {
  en: {
    empty: "Enter your user key.",
    not_a_key: `That is not a user key: a key is ${API_KEY_PREFIX} followed by ${API_KEY_HEX_CHARS} characters 0-9 and a-f.`,
    unknown_key: "That key is unknown or revoked. Check it, or ask for a new one.",
    app_key: "That is an app key, which serves many users. Sign in with your own user key.",
    wrong_passphrase: "The key or passphrase is not right.",
  },
  zh: {
    empty: "请输入你的用户密钥。",
    not_a_key: `这不是用户密钥：密钥是 ${API_KEY_PREFIX} 加 ${API_KEY_HEX_CHARS} 个 0-9、a-f 字符。`,
    unknown_key: "该密钥不存在或已被吊销。请检查，或申请新的密钥。",
    app_key: "这是服务多个用户的应用密钥。请使用你自己的用户密钥登录。",
    wrong_passphrase: "密钥或口令不正确。",
  },
};

/** Every sign-in surface shares one per-address budget (http/oauth/rate-limit.ts); past it, this. */
export const SIGN_IN_TOO_MANY: Record<"en" | "zh", string> = {
  en: "Too many attempts. Wait a minute, then try again.",
  zh: "尝试次数过多。请等待一分钟后再试。",
};
