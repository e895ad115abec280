import { fileURLToPath } from 'node:url';

/** Port of the server the e2e run starts; not the default 8080, so a running dev server is left alone. */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 8181);
export const BASE_URL = `http://127.0.0.1:${E2E_PORT}`;
/** Screenshots and the server log of the run. */
export const ARTIFACTS_DIR = fileURLToPath(new URL('../artifacts/', import.meta.url));
export const SERVER_LOG = `${ARTIFACTS_DIR}server.log`;
export const DEMO_PASSWORD = 'Portal-demo-1';
/** The TOTP secret the demo data gives `demo-2fa`. */
export const DEMO_2FA_SECRET = 'JBSWY3DPEHPK3PXP';
