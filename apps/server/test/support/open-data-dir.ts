/**
 * Run in a child process by database.test.ts: opens the embedded database in the folder given as the
 * first argument and closes it again. Exit 0 when it opened, 3 when the folder was locked.
 * With `hold` as the second argument it keeps the folder open instead, prints `holding <pid>` and
 * waits to be killed.
 */
import { DataDirLockedError, openEmbedded } from '../../src/db/client';

const dir = process.argv[2];
if (!dir) throw new Error('usage: open-data-dir <folder> [hold]');
try {
  const database = await openEmbedded(dir);
  if (process.argv[3] === 'hold') {
    console.log(`holding ${process.pid}`);
    setInterval(() => {}, 60_000);
  } else {
    await database.close();
    console.log('opened');
    process.exit(0);
  }
} catch (err) {
  if (err instanceof DataDirLockedError) {
    console.log(err.message);
    process.exit(3);
  }
  throw err;
}
