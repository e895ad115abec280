import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * What the partner sandboxes (bank verification, Fortnox) share as small HTTP servers: escaping text
 * for their hosted pages, answering JSON and reading a request's body.
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
