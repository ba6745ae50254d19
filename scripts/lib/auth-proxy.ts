/**
 * @module scripts/lib/auth-proxy
 * A loopback HTTP proxy that adds `Authorization: Bearer <key>` to every request it forwards, for
 * clients that cannot send a header of their own (the MCP conformance suite). Bodies and answers
 * stream through untouched (SSE included). `Host` and `Origin` reach a loopback target exactly as
 * sent, so the server's DNS-rebinding guard sees what the client sent; a remote target gets its
 * own `Host` (its edge routes by it) whenever the client addressed the proxy itself.
 */
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from "node:http";
import { request as httpsRequest } from "node:https";
import type { AddressInfo } from "node:net";

export interface AuthProxy {
  /** The proxy's base URL (http://127.0.0.1:<port>). */
  base: string;
  close(): Promise<void>;
}

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);

/** True when `url`'s host is localhost, 127.0.0.1 or [::1]. */
export function isLoopbackUrl(url: string): boolean {
  return LOOPBACK.has(new URL(url).hostname.toLowerCase());
}

/** The Host header to forward: as sent to a loopback target; the target's own when the proxy was addressed. */
export function forwardedHost(sent: string | undefined, proxyHost: string, target: URL): string {
  if (sent === undefined) return target.host;
  if (isLoopbackUrl(target.href)) return sent;
  return sent === proxyHost ? target.host : sent;
}

function forward(req: IncomingMessage, res: ServerResponse, target: URL, key: string, proxyHost: string): void {
  const url = new URL(req.url ?? "/", target);
  const headers = { ...req.headers, host: forwardedHost(req.headers.host, proxyHost, target) };
  headers.authorization = `Bearer ${key}`;
  const send = url.protocol === "https:" ? httpsRequest : httpRequest;
  const upstream = send(url, { method: req.method, headers }, (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.headers);
    answer.pipe(res);
  });
  upstream.on("error", (err) => {
    if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain" });
    res.end(`proxy: ${err.message}`);
  });
  res.on("close", () => upstream.destroy());
  req.pipe(upstream);
}

/** Starts the proxy on 127.0.0.1 and a free port, forwarding to `targetBase` with `key`. */
export function startAuthProxy(targetBase: string, key: string): Promise<AuthProxy> {
  const target = new URL(targetBase);
  let proxyHost = "";
  const server = createServer((req, res) => forward(req, res, target, key, proxyHost));
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      proxyHost = `127.0.0.1:${port}`;
      resolve({
        base: `http://${proxyHost}`,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}
