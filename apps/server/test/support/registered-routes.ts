import type { FastifyInstance } from 'fastify';

/**
 * Every route an app has registered, as `METHOD path`, read from Fastify's route tree
 * (`printRoutes`). HEAD routes that Fastify adds for each GET are left out.
 */
export function registeredRoutes(app: FastifyInstance): string[] {
  const tree = app.printRoutes({ commonPrefix: false });
  const stack: string[] = [];
  const found: string[] = [];
  for (const line of tree.split('\n')) {
    const match = /^((?:[│ ] {3})*)[├└]── (.+?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!match) continue;
    const depth = (match[1] ?? '').length / 4;
    stack.length = depth;
    stack.push(match[2] ?? '');
    const methods = match[3];
    if (!methods) continue;
    const path = stack.join('');
    for (const method of methods.split(', ')) if (method !== 'HEAD') found.push(`${method} ${path}`);
  }
  return found.sort();
}
