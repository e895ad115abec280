/**
 * A random `Idempotency-Key` (32 hex digits, 128 bits). The server stores the first answer under the
 * key, so every retry of one action must reuse it; a new action needs a new key. Made with
 * `getRandomValues`, which, unlike `randomUUID`, also works on a page that is not a secure context.
 */
export function newIdempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}
