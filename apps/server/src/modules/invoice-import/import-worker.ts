import { parentPort } from 'node:worker_threads';
import { ApiError } from '../../lib/errors';
import { readCsvTable, readXlsxTable } from './import-table';

/**
 * The worker thread that reads import files (import-pool.ts starts it): one job at a time,
 * `{ format, bytes }` in, `{ table }` or `{ error }` out. An answer of the error catalogue goes back as
 * its code; anything else (a file broken in a way the reader did not foresee) as import.unreadable, with
 * the message for the server's log.
 */
export interface ImportJob {
  format: 'csv' | 'xlsx';
  bytes: Uint8Array;
}

export type ImportJobResult =
  | { table: string[][] }
  | { error: { code: ApiError['code']; details?: Record<string, string | number> }; bug?: string };

const port = parentPort;
if (!port) throw new Error('import-worker runs as a worker thread');

port.on('message', async (job: ImportJob) => {
  let result: ImportJobResult;
  try {
    const bytes = Buffer.from(job.bytes.buffer, job.bytes.byteOffset, job.bytes.byteLength);
    result = { table: job.format === 'xlsx' ? await readXlsxTable(bytes) : readCsvTable(bytes) };
  } catch (error) {
    result =
      error instanceof ApiError
        ? { error: { code: error.code, ...(error.details ? { details: error.details } : {}) } }
        : { error: { code: 'import.unreadable' }, bug: String((error as Error)?.stack ?? error) };
  }
  port.postMessage(result);
});
