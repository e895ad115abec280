/**
 * The door to the embedded database. PGlite is one connection, and its queries run one after the
 * other on the event loop: a request let in beyond what it can serve only makes every other request
 * wait longer. So a few requests are at the database at once (`concurrency`); a few more wait their
 * turn in order (`queueLimit`), each for at most `maxWaitMs`; any other is refused at once, and one
 * that waited its longest is refused before it touches the database. Refused means 503 with
 * Retry-After: the client comes back when there is room, instead of every client waiting seconds.
 */
export interface DbGateLimits {
  /** Requests at the database at once. */
  concurrency: number;
  /** Requests waiting for a place; one more is refused at once. 0: none wait. */
  queueLimit: number;
  /** A request that waited this long for a place is refused. */
  maxWaitMs: number;
}

export interface DbTicket {
  /** true once the request has its place; false when it is refused (queue full, waited too long, cancelled). */
  readonly admitted: Promise<boolean>;
  /** The client went away while waiting: give up the place in the queue (no-op once admitted). */
  cancel(): void;
  /** The request is done with the database: its place goes to the next in the queue (once only). */
  leave(): void;
}

export interface DbGate {
  readonly limits: DbGateLimits;
  enter(): DbTicket;
  /** Requests at the database now. */
  atWork(): number;
  /** Requests waiting for a place now. */
  waiting(): number;
  /** Since when the longest-running admitted request has been at the database (ms epoch), or null. */
  oldestAtWorkSince(): number | null;
}

interface Waiter {
  admit(ok: boolean): void;
  timer: NodeJS.Timeout;
}

export function createDbGate(limits: DbGateLimits, clock: () => number = Date.now): DbGate {
  if (limits.concurrency < 1) throw new Error('the database gate needs a concurrency of at least 1');
  // A Set keeps the order of insertion: the first is the one that has waited longest.
  const queue = new Set<Waiter>();
  const atWork = new Map<object, number>();

  const next = () => {
    while (atWork.size < limits.concurrency && queue.size > 0) {
      const first = queue.values().next().value as Waiter;
      queue.delete(first);
      clearTimeout(first.timer);
      first.admit(true);
    }
  };

  return {
    limits,
    enter() {
      const key = {};
      let left = false;
      let waiter: Waiter | undefined;
      const leave = () => {
        if (left) return;
        left = true;
        if (atWork.delete(key)) next();
      };
      let admitted: Promise<boolean>;
      if (atWork.size < limits.concurrency && queue.size === 0) {
        atWork.set(key, clock());
        admitted = Promise.resolve(true);
      } else if (queue.size >= limits.queueLimit) {
        left = true;
        admitted = Promise.resolve(false);
      } else {
        admitted = new Promise<boolean>((resolve) => {
          const w: Waiter = {
            admit: (ok) => {
              waiter = undefined;
              if (ok) atWork.set(key, clock());
              else left = true;
              resolve(ok);
            },
            timer: setTimeout(() => {
              queue.delete(w);
              w.admit(false);
            }, limits.maxWaitMs),
          };
          waiter = w;
          queue.add(w);
        });
      }
      return {
        admitted,
        cancel: () => {
          const w = waiter;
          if (!w || !queue.delete(w)) return;
          clearTimeout(w.timer);
          w.admit(false);
        },
        leave,
      };
    },
    atWork: () => atWork.size,
    waiting: () => queue.size,
    oldestAtWorkSince: () => {
      let oldest: number | null = null;
      for (const since of atWork.values()) if (oldest === null || since < oldest) oldest = since;
      return oldest;
    },
  };
}
