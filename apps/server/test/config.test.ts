import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config';

const KEY = 'a'.repeat(64);
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'portal-config-'));
  dirs.push(dir);
  return dir;
}

function errorOf(env: NodeJS.ProcessEnv): ConfigError {
  try {
    loadConfig(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return err as ConfigError;
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
}

describe('loadConfig', () => {
  it('reads a complete environment', () => {
    const config = loadConfig({
      PORT: '9090',
      DATA_DIR: tempDir(),
      SECRET_KEY: KEY,
      PUBLIC_URL: 'https://portal.example/',
      POSTHOG_KEY: 'phc_x',
      TRUST_PROXY: 'true',
      DB_CONCURRENCY: '2',
      DB_QUEUE_LIMIT: '12',
      DB_QUEUE_WAIT_MS: '250',
      DB_POOL_SIZE: '4',
      SEED_DEMO: 'never',
    });
    expect(config).toMatchObject({
      port: 9090,
      publicUrl: 'https://portal.example',
      posthogKey: 'phc_x',
      trustProxy: true,
      dbConcurrency: 2,
      dbQueueLimit: 12,
      dbQueueWaitMs: 250,
      dbPoolSize: 4,
      seedDemo: false,
      databaseUrl: undefined,
    });
    expect(config.secretKey).toEqual(Buffer.from(KEY, 'hex'));
  });

  it('has defaults for everything but the secret', () => {
    const config = loadConfig({ DATA_DIR: tempDir(), SECRET_KEY: KEY });
    expect(config).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      publicUrl: 'http://localhost:8080',
      logLevel: 'info',
      trustProxy: false,
      seedDemo: true,
      dbConcurrency: 2,
      dbQueueLimit: 64,
      dbQueueWaitMs: 250,
      dbPoolSize: 10,
    });
  });

  it.each(['abc', '0', '70000', '80.5'])('names PORT when it is %j', (port) => {
    const err = errorOf({ PORT: port, DATA_DIR: tempDir(), SECRET_KEY: KEY });
    expect(err.message).toMatch(/^ {2}PORT: /m);
  });

  it.each([
    ['SECRET_KEY', 'too-short'],
    ['DATABASE_URL', 'mysql://db/portal'],
    ['SMTP_URL', 'http://mail'],
    ['PUBLIC_URL', 'not a url'],
    ['LOG_LEVEL', 'loud'],
    ['TRUST_PROXY', 'yes'],
    ['DB_CONCURRENCY', '0'],
    ['DB_QUEUE_LIMIT', '-1'],
    ['DB_QUEUE_WAIT_MS', '0'],
    ['DB_POOL_SIZE', '0'],
    ['DB_POOL_SIZE', '101'],
  ])('names %s when it is bad', (name, value) => {
    const err = errorOf({ DATA_DIR: tempDir(), SECRET_KEY: KEY, [name]: value });
    expect(err.message).toMatch(new RegExp(`^ {2}${name}: `, 'm'));
  });

  it('names every bad variable at once', () => {
    const err = errorOf({ PORT: 'x', LOG_LEVEL: 'loud', DATA_DIR: tempDir(), SECRET_KEY: KEY });
    expect(err.message).toContain('PORT');
    expect(err.message).toContain('LOG_LEVEL');
  });

  it('refuses DATABASE_URL without SECRET_KEY, naming SECRET_KEY', () => {
    const dir = tempDir();
    const err = errorOf({ DATABASE_URL: 'postgres://db/portal', DATA_DIR: dir });
    expect(err.message).toMatch(/SECRET_KEY: required when DATABASE_URL is set/);
    // Nothing was generated for it.
    expect(() => statSync(join(dir, 'secret.key'))).toThrow();
    expect(loadConfig({ DATABASE_URL: 'postgres://db/portal', SECRET_KEY: KEY }).databaseUrl).toBe(
      'postgres://db/portal',
    );
  });

  it('takes the e-signing account only with all five variables, and keys its callbacks apart from SECRET_KEY', () => {
    const scrive = {
      E_SIGNING_URL: 'https://scrive.com/api/v2/',
      E_SIGNING_API_TOKEN: 'a1b2_101',
      E_SIGNING_API_SECRET: 'c47b87126dsacbhb',
      E_SIGNING_ACCESS_TOKEN: '2d12_114',
      E_SIGNING_ACCESS_SECRET: '12876adsdhght665',
    };
    const config = loadConfig({ DATABASE_URL: 'postgres://db/portal', SECRET_KEY: KEY, ...scrive });
    expect(config.eSigning).toEqual({
      apiUrl: 'https://scrive.com/api/v2',
      apiToken: 'a1b2_101',
      apiSecret: 'c47b87126dsacbhb',
      accessToken: '2d12_114',
      accessSecret: '12876adsdhght665',
    });
    expect(config.eSigningCallbackKey).toHaveLength(32);
    expect(config.eSigningCallbackKey.equals(config.secretKey)).toBe(false);
    expect(config.eSigningCallbackKey.equals(config.fortnoxKey)).toBe(false);
    const demo = loadConfig({
      DATABASE_URL: 'postgres://db/portal',
      SECRET_KEY: KEY,
      E_SIGNING_SANDBOX_PORT: '8093',
      E_SIGNING_SANDBOX_FAIL: ' sealing, callback_twice ,',
    });
    expect(demo.eSigning).toBeNull();
    expect(demo.eSigningSandbox).toEqual({ port: 8093, failures: ['sealing', 'callback_twice'] });
    const { E_SIGNING_ACCESS_SECRET: _, ...partial } = scrive;
    expect(errorOf({ DATABASE_URL: 'postgres://db/portal', SECRET_KEY: KEY, ...partial }).message).toContain(
      'E_SIGNING_URL, _API_TOKEN, _API_SECRET, _ACCESS_TOKEN and _ACCESS_SECRET go together',
    );
  });

  it('treats an empty value as unset', () => {
    const config = loadConfig({ PORT: '', DATA_DIR: tempDir(), SECRET_KEY: KEY });
    expect(config.port).toBe(8080);
  });

  it('generates the embedded secret once, keeps it private and reuses it', () => {
    const dir = tempDir();
    const first = loadConfig({ DATA_DIR: dir });
    const file = join(dir, 'secret.key');
    expect(readFileSync(file, 'utf8')).toBe(`${first.secretKey.toString('hex')}\n`);
    expect(first.secretKey).toHaveLength(32);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const second = loadConfig({ DATA_DIR: dir });
    expect(second.secretKey).toEqual(first.secretKey);
    // Another folder, another key.
    expect(loadConfig({ DATA_DIR: tempDir() }).secretKey).not.toEqual(first.secretKey);
    // SECRET_KEY wins over the file.
    expect(loadConfig({ DATA_DIR: dir, SECRET_KEY: KEY }).secretKey).toEqual(Buffer.from(KEY, 'hex'));
  });

  it('refuses a damaged secret file rather than replacing it', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'secret.key'), 'not hex\n');
    expect(() => loadConfig({ DATA_DIR: dir })).toThrow(ConfigError);
    expect(readFileSync(join(dir, 'secret.key'), 'utf8')).toBe('not hex\n');
  });
});
