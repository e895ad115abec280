import { loadConfig } from '../config';
import { migrate } from '../db/migrate';
import { openDatabase } from '../server';
import { runOperators } from './operators';

// `npm run operators -- <command>`: see docs/BACKOFFICE.md.
const config = loadConfig();
const database = await openDatabase(config);
try {
  await migrate(database.db);
  process.exitCode = await runOperators(
    process.argv.slice(2),
    process.env,
    {
      out: (line) => console.log(line),
      err: (line) => console.error(line),
    },
    database.db,
    config.secretKey,
  );
} finally {
  await database.close();
}
