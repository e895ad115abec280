import { randomBytes } from 'node:crypto';
import { passwordPolicyFailures } from '@portal/contracts';
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { operatorSessions, operators } from '../db/schema';
import { audit } from '../lib/audit';
import { hashPassword } from '../lib/passwords';
import { seal } from '../lib/tokens';
import { newTotpSecret, otpauthUri } from '../lib/totp';

/** The issuer name authenticator apps show next to an operator's code. */
const OPERATOR_TOTP_ISSUER = 'Kundportalen back office';

/**
 * `npm run operators -- <command>`: manages back-office operators straight in the database the
 * environment names (docs/BACKOFFICE.md). It is run by whoever runs the servers, never over HTTP: an
 * operator cannot make or unmake operators through the API.
 */
export const OPERATOR_EXIT = { ok: 0, refused: 1, usage: 2 } as const;

export interface OperatorIo {
  out(line: string): void;
  err(line: string): void;
}

const USAGE = `usage: npm run operators -- <command>
  list
  create <username> --name "Full Name" --email a@b.se   (password from OPERATOR_PASSWORD, else generated)
  deactivate <username>                                 (also ends the operator's sessions)
  activate <username>
  reset-password <username>                             (password from OPERATOR_PASSWORD, else generated)
  enable-2fa <username>                                 (prints the TOTP secret and otpauth URI once)
  disable-2fa <username>`;

function option(args: string[], name: string): string | undefined {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? args[at + 1] : undefined;
}

/** A password that meets the policy: 20 random characters of a mixed alphabet plus one of each class. */
function generatedPassword(): string {
  return `${randomBytes(15).toString('base64url')}aA1!`;
}

function passwordFrom(env: Record<string, string | undefined>, io: OperatorIo): string | null {
  const given = env.OPERATOR_PASSWORD;
  if (given === undefined || given === '') return generatedPassword();
  const [failure] = passwordPolicyFailures(given);
  if (failure) {
    io.err(`OPERATOR_PASSWORD does not meet the password policy (${failure})`);
    return null;
  }
  return given;
}

async function find(db: Db, username: string) {
  const [found] = await db
    .select()
    .from(operators)
    .where(sql`lower(${operators.username}) = ${username.toLowerCase()}`)
    .limit(1);
  return found ?? null;
}

export async function runOperators(
  args: string[],
  env: Record<string, string | undefined>,
  io: OperatorIo,
  db: Db,
  secretKey: Buffer,
  now = new Date(),
): Promise<number> {
  const [command, username] = args;
  if (command === 'list') {
    const all = await db.select().from(operators).orderBy(asc(operators.username));
    for (const o of all) io.out(`${o.username}\t${o.name}\t${o.email}\t${o.active ? 'active' : 'inactive'}`);
    return OPERATOR_EXIT.ok;
  }
  if (
    !command ||
    !username ||
    !['create', 'deactivate', 'activate', 'reset-password', 'enable-2fa', 'disable-2fa'].includes(command)
  ) {
    io.err(USAGE);
    return OPERATOR_EXIT.usage;
  }
  const existing = await find(db, username);
  if (command === 'create') {
    const name = option(args, 'name');
    const email = option(args, 'email');
    if (!name || !email || !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email) || !/^[\w.@-]{2,64}$/.test(username)) {
      io.err(`${USAGE}\n(create needs a username of letters, digits, . _ @ -, a --name and a valid --email)`);
      return OPERATOR_EXIT.usage;
    }
    if (existing) {
      io.err(`operator ${username} exists already`);
      return OPERATOR_EXIT.refused;
    }
    const password = passwordFrom(env, io);
    if (!password) return OPERATOR_EXIT.usage;
    const [created] = await db
      .insert(operators)
      .values({ username, name, email, passwordHash: await hashPassword(password), createdAt: now })
      .returning({ id: operators.id });
    await audit(db, 'operator.created', { operatorId: created?.id, username, details: { name, email } });
    io.out(`operator ${username} created`);
    if (!env.OPERATOR_PASSWORD) io.out(`password (shown once): ${password}`);
    return OPERATOR_EXIT.ok;
  }
  if (!existing) {
    io.err(`no operator ${username}`);
    return OPERATOR_EXIT.refused;
  }
  if (command === 'enable-2fa' || command === 'disable-2fa') {
    const enable = command === 'enable-2fa';
    const secret = enable ? newTotpSecret() : null;
    await db.transaction(async (tx) => {
      await tx
        .update(operators)
        .set({ totpSecret: secret ? seal(secretKey, secret) : null, totpLastStep: null })
        .where(eq(operators.id, existing.id));
      await endSessions(tx, existing.id, now);
      await audit(tx, enable ? 'operator.two_factor_enabled' : 'operator.two_factor_disabled', {
        operatorId: existing.id,
        username: existing.username,
      });
    });
    if (secret) {
      io.out(`two-factor enabled for ${existing.username}; add it to the operator's authenticator app:`);
      io.out(`secret (shown once): ${secret}`);
      io.out(`uri: ${otpauthUri(secret, existing.username, OPERATOR_TOTP_ISSUER)}`);
    } else io.out(`two-factor disabled for ${existing.username}`);
    return OPERATOR_EXIT.ok;
  }
  if (command === 'reset-password') {
    const password = passwordFrom(env, io);
    if (!password) return OPERATOR_EXIT.usage;
    await db.transaction(async (tx) => {
      await tx
        .update(operators)
        .set({ passwordHash: await hashPassword(password) })
        .where(eq(operators.id, existing.id));
      await endSessions(tx, existing.id, now);
      await audit(tx, 'operator.password_reset', { operatorId: existing.id, username: existing.username });
    });
    io.out(`password of ${existing.username} reset; its sessions are ended`);
    if (!env.OPERATOR_PASSWORD) io.out(`password (shown once): ${password}`);
    return OPERATOR_EXIT.ok;
  }
  const active = command === 'activate';
  await db.transaction(async (tx) => {
    await tx.update(operators).set({ active }).where(eq(operators.id, existing.id));
    if (!active) await endSessions(tx, existing.id, now);
    await audit(tx, active ? 'operator.activated' : 'operator.deactivated', {
      operatorId: existing.id,
      username: existing.username,
    });
  });
  io.out(`operator ${existing.username} ${active ? 'activated' : 'deactivated'}`);
  return OPERATOR_EXIT.ok;
}

async function endSessions(
  tx: Parameters<Parameters<Db['transaction']>[0]>[0],
  operatorId: string,
  now: Date,
) {
  await tx
    .update(operatorSessions)
    .set({ revokedAt: now })
    .where(and(eq(operatorSessions.operatorId, operatorId), isNull(operatorSessions.revokedAt)));
}
