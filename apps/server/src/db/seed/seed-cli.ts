import { join } from 'node:path';
import { loadConfig } from '../../config';
import { openDatabase } from '../../server';
import { databaseFileStore, folderFileStore } from '../../services/file-store';
import { migrate } from '../migrate';
import { seedDemo } from './demo';

// An explicit command: it seeds whichever database the environment names, PostgreSQL included.
const config = loadConfig();
const database = await openDatabase(config);
try {
  await migrate(database.db);
  console.log(
    // The signed agreements go where the server reads files: the data folder, or the database itself.
    (await seedDemo(database.db, config.secretKey, new Date(), {
      files:
        database.kind === 'embedded'
          ? folderFileStore(join(config.dataDir, 'files'))
          : databaseFileStore(database.db),
    }))
      ? 'demo data written'
      : 'demo data already present',
  );
} finally {
  await database.close();
}
