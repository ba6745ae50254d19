/**
 * @module scripts/lib/chromium
 * A headless Chromium for the browser tests and `npm run screenshots`: the system's Chromium
 * (Debian's `chromium` package, or CHROMIUM_PATH) driven by playwright-core, so no browser is
 * downloaded. Playwright gives every launch a fresh, throwaway profile.
 */
import { existsSync } from "node:fs";
import { type Browser, chromium } from "playwright-core";

const CANDIDATES = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"];

const FLAGS = [
  "--headless",
  // CI runs as root, where Chromium's sandbox cannot start.
  "--no-sandbox",
  "--disable-gpu",
  "--disable-dev-shm-usage",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** The Chromium binary to drive, or a message saying how to install one. */
export function chromiumPath(): string {
  const asked = process.env.CHROMIUM_PATH;
  if (asked) {
    if (!existsSync(asked)) throw new Error(`CHROMIUM_PATH=${asked} does not exist`);
    return asked;
  }
  const found = CANDIDATES.find((p) => existsSync(p));
  if (!found)
    throw new Error(
      "no Chromium found: install it (Debian: apt-get install -y chromium fonts-noto-cjk) or set CHROMIUM_PATH",
    );
  return found;
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath(), args: FLAGS, timeout: 60_000 });
}
