import { loadConfig } from '../../config';
import { openDatabase } from '../../server';
import { migrate } from '../migrate';
import { seedDemo } from './demo';

// An explicit command: it seeds whichever database the environment names, PostgreSQL included.
const config = loadConfig();
const database = await openDatabase(config);
try {
  await migrate(database.db);
  console.log(
    (await seedDemo(database.db, config.secretKey)) ? 'demo data written' : 'demo data already present',
  );
} finally {
  await database.close();
}
