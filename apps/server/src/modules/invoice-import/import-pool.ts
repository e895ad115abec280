import { availableParallelism } from 'node:os';
import { Worker, type WorkerOptions } from 'node:worker_threads';
import { ApiError } from '../../lib/errors';
import type { ImportJob, ImportJobResult } from './import-worker';

/**
 * Import files are read in worker threads, never on the event loop: reading even a file within the
 * limits is tens of milliseconds of CPU per thousand lines, and a hostile one is refused only once its
 * limit is reached. A few workers (one per spare core, at most two) each read one file at a time, with
 * a heap of their own (`heapMb`) and a time limit after which the worker is ended. Files wait in a
 * short queue; when it is full the answer is 503 with Retry-After, so four or forty uploads at once
 * never take more than `workers × heapMb` of memory nor the server's event loop.
 */
export interface ImportPoolOptions {
  workers: number;
  queue: number;
  heapMb: number;
  timeLimitMs: number;
  /** An idle worker is ended after this long (its heap given back), and started again when needed. */
  idleMs: number;
}

export const IMPORT_POOL_DEFAULTS: ImportPoolOptions = {
  workers: Math.max(1, Math.min(2, availableParallelism() - 1)),
  queue: 8,
  heapMb: 256,
  timeLimitMs: 20_000,
  idleMs: 30_000,
};

interface Waiting {
  job: ImportJob;
  resolve: (table: string[][]) => void;
  reject: (error: unknown) => void;
}

interface Slot {
  worker: Worker | null;
  busy: boolean;
  idle: NodeJS.Timeout | null;
}

/**
 * Where the worker's code is: next to this module in the sources (dev and the tests, which run
 * TypeScript through tsx; a worker does not inherit the loader, so it registers tsx's before loading
 * the module) or next to dist/main.js in the built server, which scripts/build.mjs bundles it into.
 */
function startWorker(options: WorkerOptions): Worker {
  const here = import.meta.url;
  if (!/\.ts$/.test(new URL(here).pathname)) return new Worker(new URL('./import-worker.js', here), options);
  const entry = JSON.stringify(new URL('./import-worker.ts', here).href);
  return new Worker(
    `import('tsx/esm/api').then(({ register }) => { register(); return import(${entry}); });`,
    { ...options, eval: true },
  );
}

export class ImportPool {
  private readonly slots: Slot[];
  private readonly waiting: Waiting[] = [];

  constructor(
    private readonly opts: ImportPoolOptions = IMPORT_POOL_DEFAULTS,
    private readonly log: (message: string) => void = () => {},
  ) {
    this.slots = Array.from({ length: opts.workers }, () => ({ worker: null, busy: false, idle: null }));
  }

  /** The file's table; 503 server.unavailable when every worker is busy and the queue is full. */
  read(format: ImportJob['format'], bytes: Uint8Array): Promise<string[][]> {
    return new Promise((resolve, reject) => {
      // A copy of the bytes of its own, handed over to the worker without another copy.
      const job: ImportJob = { format, bytes: new Uint8Array(bytes) };
      const slot = this.slots.find((s) => !s.busy);
      if (slot) this.run(slot, { job, resolve, reject });
      else if (this.waiting.length < this.opts.queue) this.waiting.push({ job, resolve, reject });
      else reject(new ApiError('server.unavailable', { retryAfterSeconds: 2 }));
    });
  }

  /** Ends every worker (the app's close). */
  async close(): Promise<void> {
    for (const w of this.waiting.splice(0))
      w.reject(new ApiError('server.unavailable', { retryAfterSeconds: 2 }));
    await Promise.all(
      this.slots.map(async (slot) => {
        if (slot.idle) clearTimeout(slot.idle);
        const worker = slot.worker;
        slot.worker = null;
        if (worker) await worker.terminate();
      }),
    );
  }

  private start(): Worker {
    const worker = startWorker({
      resourceLimits: { maxOldGenerationSizeMb: this.opts.heapMb, maxYoungGenerationSizeMb: 32 },
    });
    // The pool never keeps the process alive: a request waiting for an answer does.
    worker.unref();
    return worker;
  }

  private run(slot: Slot, task: Waiting): void {
    slot.busy = true;
    if (slot.idle) clearTimeout(slot.idle);
    slot.idle = null;
    const worker = slot.worker ?? this.start();
    slot.worker = worker;
    let settled = false;
    const finish = (outcome: () => void, broken: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
      if (broken) {
        if (slot.worker === worker) slot.worker = null;
        void worker.terminate();
      }
      outcome();
      slot.busy = false;
      this.next(slot);
    };
    const onMessage = (result: ImportJobResult) =>
      finish(() => {
        if ('table' in result) task.resolve(result.table);
        else {
          if (result.bug) this.log(`import file not readable: ${result.bug}`);
          task.reject(
            new ApiError(result.error.code, result.error.details ? { details: result.error.details } : {}),
          );
        }
      }, false);
    const onError = (error: Error & { code?: string }) =>
      finish(() => {
        // ERR_WORKER_OUT_OF_MEMORY: the file needed more than the worker's heap.
        this.log(`import worker failed: ${error.code ?? ''} ${error.message}`);
        task.reject(
          error.code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? new ApiError('import.too_large', { details: { limit: 'heapMb', max: this.opts.heapMb } })
            : new ApiError('server.unavailable', { retryAfterSeconds: 2 }),
        );
      }, true);
    const onExit = () =>
      finish(() => task.reject(new ApiError('server.unavailable', { retryAfterSeconds: 2 })), true);
    const timer = setTimeout(
      () =>
        finish(
          () =>
            task.reject(
              new ApiError('import.too_large', {
                details: { limit: 'seconds', max: this.opts.timeLimitMs / 1000 },
              }),
            ),
          true,
        ),
      this.opts.timeLimitMs,
    );
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
    worker.postMessage(task.job, [task.job.bytes.buffer as ArrayBuffer]);
  }

  private next(slot: Slot): void {
    const task = this.waiting.shift();
    if (task) {
      this.run(slot, task);
      return;
    }
    const worker = slot.worker;
    if (!worker) return;
    slot.idle = setTimeout(() => {
      if (slot.busy || slot.worker !== worker) return;
      slot.worker = null;
      slot.idle = null;
      void worker.terminate();
    }, this.opts.idleMs);
    slot.idle.unref();
  }
}
