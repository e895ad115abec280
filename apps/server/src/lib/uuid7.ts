import { randomFillSync } from 'node:crypto';

/** Random bytes drawn in bulk: one system call for 256 ids instead of one each. */
const POOL = Buffer.alloc(16 * 256);
let poolAt = POOL.length;

let lastMs = -1;
let counter = 0;

/**
 * A UUID of version 7 (RFC 9562 §5.7): 48 bits of Unix time in milliseconds, then a 12-bit counter
 * that orders the ids made in one millisecond (RFC 9562 §6.2, method 1), then 62 random bits. Ids made
 * later in this process sort after earlier ones, as text and as PostgreSQL uuids, so a bulk insert
 * appends them at the right edge of a B-tree index instead of on random pages all over it (the BGMAX
 * import's payments, docs/BENCHMARKS.md). The clock going back does not break the order: the last
 * time is kept, and a counter run out moves on to the next millisecond.
 */
export function uuidv7(now: number = Date.now()): string {
  if (now > lastMs) {
    lastMs = now;
    counter = 0;
  } else if (++counter > 0xfff) {
    lastMs++;
    counter = 0;
  }
  if (poolAt === POOL.length) {
    randomFillSync(POOL);
    poolAt = 0;
  }
  const b = POOL.subarray(poolAt, poolAt + 16);
  poolAt += 16;
  b.writeUIntBE(lastMs, 0, 6);
  b[6] = 0x70 | (counter >> 8);
  b[7] = counter & 0xff;
  b[8] = 0x80 | ((b[8] as number) & 0x3f);
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
