/**
 * Where export and import find the dev server: --url first, then the URL `npm run dev` recorded, then
 * the default; the record is removed only by the server that wrote it; a 401 names what to check.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { authHint, clearDevUrl, DEFAULT_DEV_URL, recordDevUrl, serverUrl } from "../../scripts/lib/dev-url";

const dir = mkdtempSync(join(tmpdir(), "hippocampus-dev-url-"));
const file = join(dir, ".wrangler", "dev-url");
afterEach(() => rmSync(join(dir, ".wrangler"), { recursive: true, force: true }));

describe("the dev server's URL", () => {
  it("is the default with nothing recorded, the recorded one while dev runs, and --url above both", () => {
    expect(serverUrl(undefined, file)).toEqual({ url: DEFAULT_DEV_URL, from: "the default" });
    recordDevUrl("http://127.0.0.1:8790", file);
    expect(serverUrl(undefined, file).url).toBe("http://127.0.0.1:8790");
    expect(serverUrl("https://memory.example.com", file)).toEqual({ url: "https://memory.example.com", from: "--url" });
  });

  it("is removed when that server stops, not when another one does", () => {
    recordDevUrl("http://127.0.0.1:8790", file);
    clearDevUrl("http://127.0.0.1:8791", file);
    expect(serverUrl(undefined, file).url).toBe("http://127.0.0.1:8790");
    clearDevUrl("http://127.0.0.1:8790", file);
    expect(serverUrl(undefined, file).url).toBe(DEFAULT_DEV_URL);
  });

  it("ignores a record that is not a bare http(s) origin", () => {
    recordDevUrl("http://127.0.0.1:8790", file);
    writeFileSync(file, "javascript:alert(1)\n");
    expect(serverUrl(undefined, file).url).toBe(DEFAULT_DEV_URL);
  });

  it("after a 401 or 403 says the key is checked by the server at that URL", () => {
    expect(authHint(401)).toContain("The key is checked by the server at that URL");
    expect(authHint(403)).toContain("pass --url");
    expect(authHint(500)).toBe("");
  });
});
