import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * What the partner sandboxes (bank verification, Fortnox, e-signing) share as small HTTP servers:
 * escaping text for their hosted pages, answering JSON and reading a request's body.
 */

/** Text made safe to put into the sandbox's hosted HTML page. */
export function escapeHtml(s: string): string {
  return s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  type = 'application/json',
): void {
  res.writeHead(status, { 'content-type': type });
  res.end(JSON.stringify(body));
}

/** The request's body as text; a body over 64 kB ends the connection (no partner sends one). */
export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    let data = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      data += chunk;
      if (data.length > 64 * 1024) req.destroy();
    });
    req.on('end', () => resolve(data));
    req.on('error', reject);
  });
}

/** The request's body as bytes (an uploaded PDF); a body over `limit` bytes ends the connection. */
export function readBodyBytes(req: IncomingMessage, limit = 10 * 1024 * 1024): Promise<Buffer> {
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) req.destroy();
      else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** Where a sandbox listens: a port (0 = any free one) and host, and the host name browsers use. */
export interface SandboxAddress {
  port?: number;
  host?: string;
  publicHostname?: string;
}

/**
 * Starts a sandbox's server and answers its public base URL (no trailing slash): the given host
 * name, else the host it listens on, else 127.0.0.1 when it listens on every interface.
 */
export async function listenSandbox(server: Server, address: SandboxAddress): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(address.port ?? 0, address.host ?? '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host =
    address.publicHostname ?? (address.host && address.host !== '0.0.0.0' ? address.host : '127.0.0.1');
  return `http://${host}:${port}`;
}

/** Stops a sandbox's server, cutting the connections still open. */
export function closeSandbox(server: Server): Promise<void> {
  return new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
}
