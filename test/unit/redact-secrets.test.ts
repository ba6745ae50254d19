import { describe, expect, it } from "vitest";
import { passesLuhn, redactSecrets } from "../../src/memory/write/redact-secrets";

const kinds = (text: string) => redactSecrets(text).redactions.map((r) => r.kind);

describe("redactSecrets: provider API keys", () => {
  it.each([
    ["openai-key", "my OpenAI key is sk-proj-abc123DEF456ghi789JKL012mno345", "my OpenAI key is [REDACTED:openai-key]"],
    [
      "openai-key",
      "legacy key sk-A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8S9t0U1v2W3x4",
      "legacy key [REDACTED:openai-key]",
    ],
    ["anthropic-key", "claude: sk-ant-api03-Ab12Cd34Ef56Gh78Ij90Kl12", "claude: [REDACTED:anthropic-key]"],
    ["aws-access-key", "id AKIAIOSFODNN7EXAMPLE here", "id [REDACTED:aws-access-key] here"],
    ["github-token", "token ghp_abcdefghijklmnopqrstuvwxyz0123456789", "token [REDACTED:github-token]"],
    ["github-token", "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuv", "[REDACTED:github-token]"],
    ["slack-token", "slack xoxb-1234567890-abcdefghij", "slack [REDACTED:slack-token]"],
    ["slack-token", "xoxp-9876543210-zyxwvutsrq", "[REDACTED:slack-token]"],
    ["stripe-key", "stripe sk_live_abcdefghijklmnop1234", "stripe [REDACTED:stripe-key]"],
    ["stripe-key", "rk_live_ABCDEFGHIJKLMNOP5678", "[REDACTED:stripe-key]"],
    ["google-api-key", "maps AIzaSyA1234567890abcdefghijklmnopqrstuv", "maps [REDACTED:google-api-key]"],
  ])("redacts %s", (kind, input, expected) => {
    const out = redactSecrets(input);
    expect(out.text).toBe(expected);
    expect(out.redactions).toEqual([{ kind, count: 1 }]);
  });

  it("keeps the label and redacts an AWS secret key", () => {
    const out = redactSecrets("aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY");
    expect(out.text).toBe("aws_secret_access_key = [REDACTED:aws-secret-key]");
  });

  it("keeps 'Bearer' and redacts the token", () => {
    expect(redactSecrets("Authorization: Bearer abcdef1234567890abcdef").text).toBe(
      "Authorization: Bearer [REDACTED:bearer-token]",
    );
  });

  it("does not redact words that merely start like a key", () => {
    for (const text of [
      "I take the sk-learning-path-for-beginners course",
      "Bearer authentication is common",
      "my risk-free-investment-strategy",
    ]) {
      expect(redactSecrets(text).text).toBe(text);
    }
  });
});

describe("redactSecrets: passwords", () => {
  it.each([
    ["password: hunter2", "password: [REDACTED:password]"],
    ["My password is Tr0ub4dor&3.", "My password is [REDACTED:password]."],
    ["the wifi password is now abc12345", "the wifi password is now [REDACTED:password]"],
    ["password for gmail is s3cret!x", "password for gmail is [REDACTED:password]"],
    ["pwd=Xy9!z", "pwd=[REDACTED:password]"],
    ["我的密码是abc123，别告诉别人", "我的密码是[REDACTED:password]，别告诉别人"],
    ["银行卡密码：887766", "银行卡密码：[REDACTED:password]"],
    ["wifi密码为 qwerty2024。", "wifi密码为 [REDACTED:password]。"],
    ["My password: correct horse battery staple", "My password: [REDACTED:password]"],
    ["password: hunter2. See you", "password: [REDACTED:password]. See you"],
    ['user=bob, password="pass word 12"', "user=bob, password=[REDACTED:password]"],
    ["the pin code is 4321", "the pin code is [REDACTED:password]"],
  ])("%s", (input, expected) => {
    expect(redactSecrets(input).text).toBe(expected);
  });

  it("leaves sentences about passwords alone", () => {
    for (const text of [
      "My password is too weak",
      "I forgot my password yesterday",
      "我的密码是什么？",
      "password manager is great",
      "Password: required",
      "passwords: are important",
      "密码：",
    ]) {
      expect(redactSecrets(text).text).toBe(text);
    }
  });
});

describe("redactSecrets: card numbers", () => {
  it("redacts a Luhn-valid card with spaces or dashes", () => {
    expect(redactSecrets("card 4111 1111 1111 1111 exp 12/27").text).toBe("card [REDACTED:card-number] exp 12/27");
    expect(redactSecrets("Amex 3782-822463-10005").text).toBe("Amex [REDACTED:card-number]");
    expect(redactSecrets("卡号5555555555554444").text).toBe("卡号[REDACTED:card-number]");
  });

  it("keeps numbers that fail the Luhn check", () => {
    expect(redactSecrets("1234 5678 9012 3456").text).toBe("1234 5678 9012 3456");
    expect(redactSecrets("4111 1111 1111 1112").text).toBe("4111 1111 1111 1112");
    expect(passesLuhn("4111111111111111")).toBe(true);
    expect(passesLuhn("1234567890123456")).toBe(false);
  });

  it("never touches ordinary numbers, dates and phone numbers", () => {
    const text = "Call +1 415-555-0132 or 13812345678 on 2024-01-15; I was born in 1990 and have 3 cats, pi is 3.14159";
    expect(redactSecrets(text)).toEqual({ text, redactions: [] });
  });
});

describe("redactSecrets: private keys and JWTs", () => {
  it("redacts a PEM private-key block", () => {
    const pem =
      "key:\n-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\nabcDEF==\n-----END RSA PRIVATE KEY-----\nthanks";
    expect(redactSecrets(pem).text).toBe("key:\n[REDACTED:private-key]\nthanks");
    expect(kinds("-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXk\n-----END OPENSSH PRIVATE KEY-----")).toEqual([
      "private-key",
    ]);
  });

  it("leaves a public key or certificate alone", () => {
    const text = "-----BEGIN PUBLIC KEY-----\nMIIBIjANBg\n-----END PUBLIC KEY-----";
    expect(redactSecrets(text).text).toBe(text);
  });

  it("redacts a JWT", () => {
    const jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U";
    expect(redactSecrets(`session ${jwt} expired`).text).toBe("session [REDACTED:jwt] expired");
    expect(redactSecrets("version eyJ.1.2 of the file").redactions).toEqual([]);
  });
});

describe("redactSecrets: reporting", () => {
  it("counts each kind", () => {
    const out = redactSecrets(
      "a sk-proj-abc123DEF456ghi789JKL012 b sk-proj-zzz999YYY888xxx777WWW666 password: pw12345",
    );
    expect(out.redactions).toEqual([
      { kind: "openai-key", count: 2 },
      { kind: "password", count: 1 },
    ]);
  });

  it("reports a secret once even when two rules could claim it", () => {
    const out = redactSecrets("password: sk-proj-abc123DEF456ghi789JKL012");
    expect(out).toEqual({ text: "password: [REDACTED:openai-key]", redactions: [{ kind: "openai-key", count: 1 }] });
  });

  it("returns text without secrets unchanged", () => {
    expect(redactSecrets("我喜欢喝乌龙茶")).toEqual({ text: "我喜欢喝乌龙茶", redactions: [] });
  });
});
