import { loadConfig } from '../config';
import { openDatabase } from '../server';
import { migrate } from './migrate';

const config = loadConfig();
const database = await openDatabase(config);
try {
  const applied = await migrate(database.db);
  console.log(applied.length ? `applied: ${applied.join(', ')}` : 'the database is up to date');
} finally {
  await database.close();
}
