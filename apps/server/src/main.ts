import { ConfigError, loadConfig } from './config';
import { DataDirLockedError } from './db/client';
import { keepUnhandledConnectionLoss } from './db/postgres-transactions';
import { startServer } from './server';

async function main(): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(2);
    }
    throw err;
  }
  let server: Awaited<ReturnType<typeof startServer>>;
  try {
    server = await startServer(config);
  } catch (err) {
    if (err instanceof DataDirLockedError) {
      console.error(err.message);
      process.exit(3);
    }
    throw err;
  }
  if (server.database.kind === 'postgres')
    keepUnhandledConnectionLoss((err) => server.app.log.warn({ err }, 'database connection lost (driver)'));
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    server.app.log.info({ signal }, 'stopping: finishing requests in flight');
    // Fastify's close waits for requests in flight; then the database is closed cleanly.
    server
      .stop()
      .then(() => process.exit(0))
      .catch((err) => {
        console.error(err);
        process.exit(1);
      });
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
