import { createHash, randomBytes } from 'node:crypto';
import { FORTNOX_AUTHORIZATION_MINUTES, type FortnoxConnection } from '@portal/contracts';
import type { AppContext, FortnoxProvider } from '../../context';
import type { Db } from '../../db/client';
import { auditCaller, type Caller } from '../../lib/audit';
import { ApiError } from '../../lib/errors';
import { issuerIdentity } from '../../services/users';
import { type FortnoxApi, FortnoxError, type FortnoxTokens, type TokenKeeper } from './fortnox.client';
import {
  type ConnectionRow,
  connectionsToRenew,
  endConnection,
  findAuthorization,
  findConnection,
  findUserSetting,
  insertAuthorization,
  lockConnection,
  saveTokens,
  setUsersActive,
  upsertConnection,
  useAuthorization,
} from './fortnox.repository';
import { sealToken, unsealToken } from './fortnox-seal';

/**
 * Fortnox business invoices (issue #13, spec §1, §2, §6; shared/domain/fortnox-api.md). The rules:
 * only a user with a `fortnoxSetting` reaches any of it; the state of an authorization is random,
 * stored as its hash, bound to the user, short-lived and used once; the connected Fortnox company must
 * be the issuer itself (its organisation number); tokens are sealed at rest and the refresh token is
 * stored again at every renewal (Fortnox rotates it); a refresh token Fortnox refuses ends the
 * connection, so the page asks to connect again. A Fortnox invoice is taken over at most once
 * (company and document number), exactly as Fortnox has it, with its PDF.
 */

export type { Caller };

export interface Log {
  warn(obj: object, msg: string): void;
}

export const hashState = (state: string) => createHash('sha256').update(state).digest('hex');
export const digitsOf = (s: string) => s.replace(/[^0-9]/g, '');

export function providerOf(ctx: AppContext): FortnoxProvider {
  if (ctx.fortnox) return ctx.fortnox;
  throw new ApiError('fortnox.unavailable');
}

/** Spec §2: the business invoices are there only for a user with a fortnoxSetting. */
export async function requireSetting(db: Db, userId: string): Promise<void> {
  if ((await findUserSetting(db, userId)) === null) throw new ApiError('fortnox.not_enabled');
}

function view(row: ConnectionRow | null, demo: boolean): FortnoxConnection {
  if (!row)
    return {
      status: 'not_connected',
      reason: null,
      companyName: null,
      companyOrganizationNo: null,
      connectedAt: null,
      demo,
    };
  return {
    status: row.status,
    reason: row.status === 'revoked' ? (row.reason ?? 'disconnected') : null,
    companyName: row.companyName,
    companyOrganizationNo: row.companyOrgNo,
    connectedAt: row.connectedAt.toISOString(),
    demo,
  };
}

export async function getFortnoxConnection(ctx: AppContext, caller: Caller): Promise<FortnoxConnection> {
  await requireSetting(ctx.db, caller.userId);
  return view(await findConnection(ctx.db, caller.issuerId), ctx.fortnox?.demo ?? false);
}

/** Starts the authorization-code flow (§2.1): a fresh state bound to the user, and Fortnox's address. */
export async function startFortnoxConnection(
  ctx: AppContext,
  caller: Caller,
): Promise<{ redirectUrl: string }> {
  await requireSetting(ctx.db, caller.userId);
  const { client } = providerOf(ctx);
  const state = randomBytes(32).toString('base64url');
  const now = ctx.now();
  await insertAuthorization(ctx.db, {
    issuerId: caller.issuerId,
    userId: caller.userId,
    stateHash: hashState(state),
    createdAt: now,
    expiresAt: new Date(now.getTime() + FORTNOX_AUTHORIZATION_MINUTES * 60_000),
  });
  return { redirectUrl: client.authorizeUrl({ redirectUri: ctx.config.fortnoxRedirectUri, state }) };
}

/**
 * The browser came back from Fortnox. The state must be one the caller started, unused and in time
 * (else 404 `fortnox.state_invalid`, logged, nothing changed); a declined approval answers
 * `fortnox.access_denied`. The code is exchanged, the company checked against the issuer, and the
 * sealed tokens stored: the connection is active.
 */
export async function completeFortnoxConnection(
  ctx: AppContext,
  caller: Caller,
  input: { state: string; code?: string | undefined; error?: string | undefined },
  log: Log,
): Promise<FortnoxConnection> {
  await requireSetting(ctx.db, caller.userId);
  const provider = providerOf(ctx);
  const hash = hashState(input.state);
  const now = ctx.now();
  const reject = async (reason: string) => {
    await auditCaller(ctx.db, 'fortnox.rejected', caller, { reason });
    return new ApiError('fortnox.state_invalid');
  };
  const found = await findAuthorization(ctx.db, hash);
  if (!found) throw await reject('unknown_state');
  if (found.userId !== caller.userId || found.issuerId !== caller.issuerId)
    throw await reject('foreign_state');
  if (found.usedAt) throw await reject('used_state');
  if (found.expiresAt.getTime() <= now.getTime()) throw await reject('expired_state');
  const used = await ctx.db.transaction((tx) => useAuthorization(tx, hash, now));
  if (!used) throw await reject('used_state');
  if (input.error || !input.code) {
    await auditCaller(ctx.db, 'fortnox.declined', caller, { error: input.error ?? 'no_code' });
    throw new ApiError('fortnox.access_denied');
  }
  let tokens: FortnoxTokens;
  let company: { CompanyName: string; OrganizationNumber: string };
  try {
    tokens = await provider.client.exchangeCode(input.code, ctx.config.fortnoxRedirectUri);
    company = await provider.client
      .connect({ get: async () => tokens, renew: async () => tokens })
      .getCompanyInformation();
  } catch (err) {
    throw failureOf(err, log, 'exchange');
  }
  const issuer = await issuerIdentity(ctx.db, caller.issuerId);
  if (!issuer) throw new ApiError('issuer.not_found');
  if (digitsOf(company.OrganizationNumber ?? '') !== digitsOf(issuer.organizationNo)) {
    // Another company's Fortnox: we give its access straight back.
    await provider.client.revoke(tokens.refreshToken).catch(() => undefined);
    await auditCaller(ctx.db, 'fortnox.rejected', caller, {
      reason: 'company_mismatch',
      company: company.OrganizationNumber ?? '',
    });
    throw new ApiError('fortnox.company_mismatch');
  }
  const key = ctx.config.fortnoxKey;
  const saved = await ctx.db.transaction(async (tx) => {
    const row = await upsertConnection(tx, {
      issuerId: caller.issuerId,
      status: 'active',
      companyName: company.CompanyName,
      companyOrgNo: issuer.organizationNo,
      scope: tokens.scope,
      accessTokenSealed: sealToken(key, tokens.accessToken),
      refreshTokenSealed: sealToken(key, tokens.refreshToken),
      accessExpiresAt: tokens.expiresAt,
      connectedBy: caller.userId,
      connectedAt: now,
      refreshedAt: now,
    });
    await setUsersActive(tx, caller.issuerId, true);
    await auditCaller(tx, 'fortnox.connected', caller, { company: company.CompanyName, scope: tokens.scope });
    return row;
  });
  return view(saved, provider.demo);
}

/** Disconnects: the refresh token is revoked at Fortnox (best effort) and forgotten here. */
export async function disconnectFortnox(
  ctx: AppContext,
  caller: Caller,
  log: Log,
): Promise<FortnoxConnection> {
  await requireSetting(ctx.db, caller.userId);
  const row = await findConnection(ctx.db, caller.issuerId);
  if (row?.status !== 'active') return view(row, ctx.fortnox?.demo ?? false);
  if (ctx.fortnox && row.refreshTokenSealed) {
    try {
      await ctx.fortnox.client.revoke(unsealToken(ctx.config.fortnoxKey, row.refreshTokenSealed));
    } catch (err) {
      // The tokens are forgotten here whatever Fortnox answers: without them nothing can be read.
      log.warn({ err: String(err) }, 'fortnox: revoking the refresh token failed');
    }
  }
  await ctx.db.transaction(async (tx) => {
    await endConnection(tx, caller.issuerId, 'disconnected', ctx.now());
    await setUsersActive(tx, caller.issuerId, false);
    await auditCaller(tx, 'fortnox.disconnected', caller);
  });
  return view(await findConnection(ctx.db, caller.issuerId), ctx.fortnox?.demo ?? false);
}

/** Thrown inside a renewal when Fortnox refused the refresh token, after the connection was ended. */
export class ConnectionRefused extends Error {}

/**
 * The API of the issuer's active connection. Its keeper renews under a row lock, so two servers (or
 * two requests) never spend the same refresh token: the second finds the tokens the first stored.
 */
export async function apiOf(ctx: AppContext, issuerId: string): Promise<FortnoxApi> {
  const { provider, keeper } = await keeperOf(ctx, issuerId);
  return provider.client.connect(keeper);
}

/** The keeper of the issuer's active connection's tokens (see apiOf). */
async function keeperOf(ctx: AppContext, issuerId: string) {
  const provider = providerOf(ctx);
  const row = await findConnection(ctx.db, issuerId);
  if (row?.status !== 'active' || !row.accessTokenSealed || !row.refreshTokenSealed)
    throw new ApiError('fortnox.not_connected');
  const key = ctx.config.fortnoxKey;
  const open = (r: ConnectionRow): FortnoxTokens => ({
    accessToken: unsealToken(key, r.accessTokenSealed ?? ''),
    refreshToken: unsealToken(key, r.refreshTokenSealed ?? ''),
    expiresAt: r.accessExpiresAt ?? new Date(0),
    scope: r.scope,
  });
  let current = open(row);
  const keeper: TokenKeeper = {
    get: async () => current,
    renew: async (stale, refresh) => {
      const outcome = await ctx.db.transaction(async (tx) => {
        const locked = await lockConnection(tx, issuerId);
        if (locked?.status !== 'active') return 'refused' as const;
        const stored = open(locked);
        if (stored.accessToken !== stale) return stored;
        try {
          const fresh = await refresh(stored.refreshToken);
          await saveTokens(tx, issuerId, {
            accessTokenSealed: sealToken(key, fresh.accessToken),
            refreshTokenSealed: sealToken(key, fresh.refreshToken),
            accessExpiresAt: fresh.expiresAt,
            refreshedAt: ctx.now(),
          });
          return fresh;
        } catch (err) {
          if (!(err instanceof FortnoxError) || err.failure !== 'invalid_grant') throw err;
          await endConnection(tx, issuerId, 'refused', ctx.now());
          await setUsersActive(tx, issuerId, false);
          return 'refused' as const;
        }
      });
      if (outcome === 'refused') throw new ConnectionRefused();
      current = outcome;
      return outcome;
    },
  };
  return { provider, keeper };
}

/** A connection's refresh token is renewed when it is older than this (domain note §2.3: refresh daily). */
export const REFRESH_EVERY_MS = 20 * 60 * 60_000;

/**
 * Keeps the active connections alive (domain note §2.3: a refresh token lapses after a month or so
 * unused, so renew at least daily): each not renewed for REFRESH_EVERY_MS is renewed now; one Fortnox
 * refuses ends as `refused`, so the page asks to connect again. Called after the daily job.
 */
export async function refreshFortnoxConnections(
  ctx: Pick<AppContext, 'db' | 'config' | 'now' | 'fortnox'>,
  log: Log,
): Promise<{ renewed: number; refused: number; failed: number }> {
  const counts = { renewed: 0, refused: 0, failed: 0 };
  if (!ctx.fortnox) return counts;
  const due = await connectionsToRenew(ctx.db, new Date(ctx.now().getTime() - REFRESH_EVERY_MS));
  for (const issuerId of due) {
    try {
      const { provider, keeper } = await keeperOf(ctx as AppContext, issuerId);
      await keeper.renew((await keeper.get()).accessToken, provider.client.refresh);
      counts.renewed++;
    } catch (err) {
      if (err instanceof ConnectionRefused) counts.refused++;
      else {
        counts.failed++;
        log.warn({ issuerId, err: String(err) }, 'fortnox: renewing a connection failed');
      }
    }
  }
  return counts;
}

/** A failure of Fortnox as the API answers it: a refused connection 409, anything else 502. */
export function failureOf(err: unknown, log: Log, step: string): unknown {
  if (err instanceof ConnectionRefused) return new ApiError('fortnox.not_connected');
  if (err instanceof FortnoxError) {
    log.warn({ step, failure: err.failure, status: err.status, code: err.code }, 'fortnox call failed');
    if (err.failure === 'invalid_grant' && step === 'exchange') return new ApiError('fortnox.state_invalid');
    return new ApiError('fortnox.unavailable');
  }
  return err;
}
