import { and, eq, isNull } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { OPERATOR_EXIT, runOperators } from '../src/cli/operators';
import { auditLog, operatorSessions, operators } from '../src/db/schema';
import { useTestApp } from './support/use-test-app';

const t = useTestApp({ resetEach: true });

async function run(args: string[], env: Record<string, string> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const io = { out: (l: string) => out.push(l), err: (l: string) => err.push(l) };
  const code = await runOperators(args, env, io, t.db, t.config.secretKey);
  return { code, out, err };
}

const login = (username: string, password: string) =>
  t.app.inject({ method: 'POST', url: '/api/backoffice/login', payload: { username, password } });

describe('npm run operators', () => {
  it('creates an operator who can sign in with the password shown once', async () => {
    const res = await run(['create', 'stina', '--name', 'Stina Svensson', '--email', 'stina@acmefinans.se']);
    expect(res.code).toBe(OPERATOR_EXIT.ok);
    const shown = res.out.find((l) => l.startsWith('password (shown once): '));
    const password = shown?.slice('password (shown once): '.length) ?? '';
    expect(password.length).toBeGreaterThanOrEqual(20);
    expect((await login('stina', password)).statusCode).toBe(200);
    const [row] = await t.db.select().from(auditLog).where(eq(auditLog.event, 'operator.created'));
    expect(row).toMatchObject({ username: 'stina' });
  });

  it('takes the password from OPERATOR_PASSWORD and refuses one against the policy', async () => {
    const weak = await run(['create', 'kalle', '--name', 'K', '--email', 'k@a.se'], {
      OPERATOR_PASSWORD: 'short',
    });
    expect(weak.code).toBe(OPERATOR_EXIT.usage);
    expect(await t.db.select().from(operators).where(eq(operators.username, 'kalle'))).toHaveLength(0);
    const ok = await run(['create', 'kalle', '--name', 'K', '--email', 'k@a.se'], {
      OPERATOR_PASSWORD: 'Kalle-pass-99',
    });
    expect(ok.code).toBe(OPERATOR_EXIT.ok);
    expect(ok.out.join('\n')).not.toContain('Kalle-pass-99');
    expect((await login('kalle', 'Kalle-pass-99')).statusCode).toBe(200);
  });

  it('refuses a second operator of the same name, any case', async () => {
    const res = await run(['create', 'OPERATOR', '--name', 'X', '--email', 'x@a.se']);
    expect(res.code).toBe(OPERATOR_EXIT.refused);
  });

  it('deactivating ends the sessions and refuses the next sign-in; activating lets it in again', async () => {
    const token = (await login('operator', 'Portal-demo-1')).json().token as string;
    const pending = () =>
      t.app.inject({
        url: '/api/backoffice/invoices/pending-decision',
        headers: { authorization: `Bearer ${token}` },
      });
    expect((await pending()).statusCode).toBe(200);
    expect((await run(['deactivate', 'operator'])).code).toBe(OPERATOR_EXIT.ok);
    expect((await pending()).statusCode).toBe(401);
    expect((await login('operator', 'Portal-demo-1')).statusCode).toBe(401);
    const [op] = await t.db.select().from(operators).where(eq(operators.username, 'operator'));
    const open = await t.db
      .select()
      .from(operatorSessions)
      .where(and(eq(operatorSessions.operatorId, op?.id ?? ''), isNull(operatorSessions.revokedAt)));
    expect(open).toHaveLength(0);
    expect((await run(['activate', 'operator'])).code).toBe(OPERATOR_EXIT.ok);
    expect((await login('operator', 'Portal-demo-1')).statusCode).toBe(200);
  });

  it('resets a password: the old one stops working', async () => {
    const res = await run(['reset-password', 'operator'], { OPERATOR_PASSWORD: 'Another-pass-77' });
    expect(res.code).toBe(OPERATOR_EXIT.ok);
    expect((await login('operator', 'Portal-demo-1')).statusCode).toBe(401);
    expect((await login('operator', 'Another-pass-77')).statusCode).toBe(200);
  });

  it('lists operators and explains its usage', async () => {
    const list = await run(['list']);
    expect(list.out).toEqual([expect.stringMatching(/^operator\tOlle Operatör\t.*\tactive$/)]);
    expect((await run([])).code).toBe(OPERATOR_EXIT.usage);
    expect((await run(['deactivate', 'nobody'])).code).toBe(OPERATOR_EXIT.refused);
    expect((await run(['create', 'x y', '--name', 'X', '--email', 'x@a.se'])).code).toBe(OPERATOR_EXIT.usage);
  });
});
