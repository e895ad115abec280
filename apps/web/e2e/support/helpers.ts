import { readFileSync, writeFileSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, type TestInfo } from '@playwright/test';
import * as OTPAuth from 'otpauth';
import { ARTIFACTS_DIR, DEMO_PASSWORD, SERVER_LOG } from './env';

/**
 * A TOTP code computed by an independent implementation (otpauth), so the server's own RFC 6238 code
 * is checked against another one rather than against itself.
 */
export function totpCode(secret: string, at = Date.now()): string {
  const totp = new OTPAuth.TOTP({
    secret: OTPAuth.Secret.fromBase32(secret),
    digits: 6,
    period: 30,
    algorithm: 'SHA1',
  });
  return totp.generate({ timestamp: at });
}

/** Where the last TOTP step each spec used is kept (`unusedTotpCode`): the specs share one server. */
const TOTP_STEPS = `${ARTIFACTS_DIR}totp-last-steps.json`;
const stepOf = (ms: number) => Math.floor(ms / 30_000);

function lastSteps(): Record<string, number> {
  try {
    return JSON.parse(readFileSync(TOTP_STEPS, 'utf8')) as Record<string, number>;
  } catch {
    return {};
  }
}

/**
 * A code for `secret` that the server still takes, for the current period (or `ahead` periods after
 * it: the server allows one step of drift). The server takes each step once and never one at or
 * before the last it took, and the specs sign the same demo user in one after another: a spec that
 * started within 30 s of another's sign-in would give a spent code. So the step each code was made
 * for is kept in a file, and when the wanted step is not after it, this waits for the next period
 * (at most 30 s, only then).
 */
export async function unusedTotpCode(secret: string, ahead = 0): Promise<string> {
  const last = lastSteps()[secret] ?? -1;
  while (stepOf(Date.now()) + ahead <= last) await new Promise((resolve) => setTimeout(resolve, 500));
  const step = stepOf(Date.now()) + ahead;
  writeFileSync(TOTP_STEPS, JSON.stringify({ ...lastSteps(), [secret]: step }));
  return totpCode(secret, step * 30_000);
}

/** Fails the test on any serious or critical axe-core violation of the page as it is now. */
export async function expectNoSeriousA11yViolations(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(
    serious.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`),
  ).toEqual([]);
}

/** Saves a full-page screenshot under e2e/artifacts and attaches it to the report. */
export async function screenshot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  const path = `${ARTIFACTS_DIR}${name}.png`;
  await page.screenshot({ path, fullPage: true });
  await testInfo.attach(name, { path, contentType: 'image/png' });
}

/** The newest password reset link the server logged (embedded mode logs it instead of mailing). */
export function lastResetLink(): string | undefined {
  const matches = [...readFileSync(SERVER_LOG, 'utf8').matchAll(/password reset link: (\S+?)["\s\\]/g)];
  return matches.at(-1)?.[1];
}

export { DEMO_PASSWORD };
