import { createHash, randomBytes, randomUUID } from 'node:crypto';
import {
  documentLanguageForCountry,
  FORTNOX_AUTHORIZATION_MINUTES,
  FORTNOX_PAGE_SIZE,
  type FortnoxConnection,
  type InvoiceBody,
  invoiceBodySchema,
  type ListFortnoxInvoicesResponse,
  type PendingInvoice,
  type ServiceType,
  sendDueDateCode,
  type TakeOverFortnoxInvoicesResponse,
  type Unit,
} from '@portal/contracts';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { AppContext, FortnoxProvider } from '../../context';
import type { Db, Tx } from '../../db/client';
import { invoiceEvents, invoices, recipients } from '../../db/schema';
import { audit } from '../../lib/audit';
import { ApiError } from '../../lib/errors';
import { isUniqueViolation } from '../../lib/pg-errors';
import { todayIn } from '../../lib/today';
import { databaseFileStore, type FileStore } from '../../services/file-store';
import { rejectionReason, summary, writeInvoice } from '../invoices/invoices.service';
import {
  decimalToScaled,
  type FortnoxApi,
  FortnoxError,
  type FortnoxInvoice,
  type FortnoxTokens,
  type TokenKeeper,
} from './fortnox.client';
import {
  type ConnectionRow,
  claimPayment,
  connectionsToRenew,
  donePaymentsOf,
  endConnection,
  findAuthorization,
  findConnection,
  findIssuer,
  findRecipientByNumber,
  findUserSetting,
  insertAuthorization,
  insertInvoiceFile,
  insertRecipient,
  insertTakenOver,
  lockConnection,
  markSource,
  type OutboxRow,
  paymentDone,
  paymentFailed,
  pendingPayments,
  queuePaymentsOf,
  saveTokens,
  setUsersActive,
  takenOver,
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

export interface Caller {
  userId: string;
  issuerId: string;
  username: string;
  ip: string | null;
}

interface Log {
  warn(obj: object, msg: string): void;
}

const hashState = (state: string) => createHash('sha256').update(state).digest('hex');
const digitsOf = (s: string) => s.replace(/[^0-9]/g, '');

function providerOf(ctx: AppContext): FortnoxProvider {
  if (ctx.fortnox) return ctx.fortnox;
  throw new ApiError('fortnox.unavailable');
}

/** Spec §2: the business invoices are there only for a user with a fortnoxSetting. */
async function requireSetting(db: Db, userId: string): Promise<void> {
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
    await audit(ctx.db, 'fortnox.rejected', {
      userId: caller.userId,
      issuerId: caller.issuerId,
      username: caller.username,
      ip: caller.ip,
      details: { reason },
    });
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
    await audit(ctx.db, 'fortnox.declined', {
      userId: caller.userId,
      issuerId: caller.issuerId,
      username: caller.username,
      ip: caller.ip,
      details: { error: input.error ?? 'no_code' },
    });
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
  const issuer = await findIssuer(ctx.db, caller.issuerId);
  if (!issuer) throw new ApiError('issuer.not_found');
  if (digitsOf(company.OrganizationNumber ?? '') !== digitsOf(issuer.organizationNo)) {
    // Another company's Fortnox: we give its access straight back.
    await provider.client.revoke(tokens.refreshToken).catch(() => undefined);
    await audit(ctx.db, 'fortnox.rejected', {
      userId: caller.userId,
      issuerId: caller.issuerId,
      username: caller.username,
      ip: caller.ip,
      details: { reason: 'company_mismatch', company: company.OrganizationNumber ?? '' },
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
    await audit(tx, 'fortnox.connected', {
      userId: caller.userId,
      issuerId: caller.issuerId,
      username: caller.username,
      ip: caller.ip,
      details: { company: company.CompanyName, scope: tokens.scope },
    });
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
    await audit(tx, 'fortnox.disconnected', {
      userId: caller.userId,
      issuerId: caller.issuerId,
      username: caller.username,
      ip: caller.ip,
    });
  });
  return view(await findConnection(ctx.db, caller.issuerId), ctx.fortnox?.demo ?? false);
}

/** Thrown inside a renewal when Fortnox refused the refresh token, after the connection was ended. */
class ConnectionRefused extends Error {}

/**
 * The API of the issuer's active connection. Its keeper renews under a row lock, so two servers (or
 * two requests) never spend the same refresh token: the second finds the tokens the first stored.
 */
async function apiOf(ctx: AppContext, issuerId: string): Promise<FortnoxApi> {
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
function failureOf(err: unknown, log: Log, step: string): unknown {
  if (err instanceof ConnectionRefused) return new ApiError('fortnox.not_connected');
  if (err instanceof FortnoxError) {
    log.warn({ step, failure: err.failure, status: err.status, code: err.code }, 'fortnox call failed');
    if (err.failure === 'invalid_grant' && step === 'exchange') return new ApiError('fortnox.state_invalid');
    return new ApiError('fortnox.unavailable');
  }
  return err;
}

/**
 * One page of the company's unpaid invoices, as Fortnox pages them (`filter=unpaid`, page size
 * FORTNOX_PAGE_SIZE), each with whether it can be sent; those already sent to us are left out.
 */
export async function listFortnoxInvoices(
  ctx: AppContext,
  caller: Caller,
  page: number,
  log: Log,
): Promise<ListFortnoxInvoicesResponse> {
  await requireSetting(ctx.db, caller.userId);
  const api = await apiOf(ctx, caller.issuerId);
  const connection = await findConnection(ctx.db, caller.issuerId);
  let result: Awaited<ReturnType<FortnoxApi['listInvoices']>>;
  try {
    result = await api.listInvoices({ filter: 'unpaid', page, limit: FORTNOX_PAGE_SIZE });
  } catch (err) {
    throw failureOf(err, log, 'list');
  }
  const taken = await takenOver(
    ctx.db,
    caller.issuerId,
    connection?.companyOrgNo ?? '',
    result.invoices.map((i) => i.DocumentNumber),
  );
  const byNumber = new Map(taken.map((t) => [t.documentNumber, t]));
  const today = todayIn(ctx.now());
  let hiddenSent = 0;
  const items: ListFortnoxInvoicesResponse['items'] = [];
  for (const inv of result.invoices) {
    const ours = byNumber.get(inv.DocumentNumber);
    if (ours && (ours.state !== 1 || ours.issuerId !== caller.issuerId)) {
      hiddenSent++;
      continue;
    }
    const totalMinor = decimalToScaled(inv.Total, 2) ?? 0;
    const balanceMinor = decimalToScaled(inv.Balance, 2) ?? 0;
    const due = sendDueDateCode('factoring', inv.DueDate, today);
    const status = ours
      ? 'pending'
      : inv.NoxFinans
        ? 'noxfinans'
        : !inv.Booked
          ? 'not_booked'
          : balanceMinor !== totalMinor
            ? 'part_paid'
            : due === 'invoices.due_date_passed'
              ? 'due_passed'
              : due === 'invoices.due_date_too_soon'
                ? 'due_too_soon'
                : 'available';
    items.push({
      documentNumber: inv.DocumentNumber,
      customerNumber: inv.CustomerNumber,
      customerName: inv.CustomerName,
      invoiceDate: inv.InvoiceDate,
      dueDate: inv.DueDate,
      currency: inv.Currency,
      totalMinor,
      balanceMinor,
      ocr: inv.OCR,
      status,
      invoiceID: ours?.invoiceId ?? null,
    });
  }
  return {
    page: result.currentPage,
    totalPages: result.totalPages,
    total: result.totalResources,
    hiddenSent,
    items,
  };
}

/** The service of the invoices taken over from Fortnox: factoring (the invoice is sold to us). */
const BUSINESS_SERVICE: ServiceType = 'factoring';

/** Fortnox's units as ours (spec §3 units st, h, km, pack, utl); another unit is refused, not guessed. */
const UNIT_OF: Record<string, Unit> = {
  st: 'st',
  styck: 'st',
  h: 'h',
  tim: 'h',
  timme: 'h',
  timmar: 'h',
  km: 'km',
  pack: 'pack',
  pkt: 'pack',
  paket: 'pack',
  utl: 'utl',
  utlägg: 'utl',
};

type Mapped = { ok: true; body: InvoiceBody & { rows: unknown[] } } | { ok: false };

/**
 * The Fortnox invoice as our invoice body, exactly: rows with their quantity (thousandths), price
 * (öre) and VAT rate; what our invoice cannot hold exactly (prices incl. VAT, discounts, rounding,
 * freight or fees, ROT/RUT) is refused rather than changed. The totals are compared afterwards.
 */
function mapInvoice(inv: FortnoxInvoice, recipientID: string): Mapped {
  if (
    inv.VATIncluded ||
    inv.HouseWork ||
    (decimalToScaled(inv.RoundOff ?? 0, 2) ?? 1) !== 0 ||
    (decimalToScaled(inv.Freight ?? 0, 2) ?? 1) !== 0 ||
    (decimalToScaled(inv.AdministrationFee ?? 0, 2) ?? 1) !== 0
  )
    return { ok: false };
  const rows = [];
  for (const r of inv.InvoiceRows) {
    // A text row (no price, no quantity) carries no amount: Fortnox prints it, our rows cannot hold it.
    const quantityMilli = decimalToScaled(r.DeliveredQuantity, 3);
    const unitPriceMinor = decimalToScaled(r.Price, 2);
    const vat = decimalToScaled(r.VAT, 2);
    const unit = UNIT_OF[(r.Unit || 'st').toLowerCase()];
    if (
      !unit ||
      quantityMilli === null ||
      unitPriceMinor === null ||
      vat === null ||
      (decimalToScaled(r.Discount ?? 0, 2) ?? 1) !== 0 ||
      r.HouseWork
    )
      return { ok: false };
    rows.push({
      articleNumber: (r.ArticleNumber ?? '').slice(0, 50),
      name: (r.Description || r.ArticleNumber || '-').slice(0, 100),
      description: '',
      quantityMilli,
      unit,
      unitPriceMinor,
      vatBasisPoints: vat,
      rotRut: false,
    });
  }
  return {
    ok: true,
    body: {
      recipientID,
      invoiceNumber: inv.DocumentNumber,
      service: BUSINESS_SERVICE,
      currency: inv.Currency,
      invoiceDate: inv.InvoiceDate,
      dueDate: inv.DueDate,
      orderReference: (inv.YourOrderNumber ?? '').slice(0, 50),
      issuerContact: (inv.OurReference ?? '').slice(0, 50),
      recipientContact: (inv.YourReference ?? '').slice(0, 50),
      rows,
    },
  };
}

type Result = TakeOverFortnoxInvoicesResponse['results'][number];

/**
 * Takes the chosen Fortnox invoices over as pending invoices of ours (idempotent: one already taken
 * over answers its pending invoice), each in its own transaction with its recipient (matched by
 * organisation number, else added from Fortnox's customer) and its PDF as the invoice's own PDF. The
 * answer lists the pending invoices for the send confirmation of `/invoice/send`.
 */
export async function takeOverFortnoxInvoices(
  ctx: AppContext,
  caller: Caller,
  documentNumbers: string[],
  log: Log,
): Promise<TakeOverFortnoxInvoicesResponse> {
  await requireSetting(ctx.db, caller.userId);
  const api = await apiOf(ctx, caller.issuerId);
  const connection = await findConnection(ctx.db, caller.issuerId);
  const issuer = await findIssuer(ctx.db, caller.issuerId);
  if (!connection || !issuer) throw new ApiError('fortnox.not_connected');
  const files = ctx.files ?? databaseFileStore(ctx.db);
  const results: Result[] = [];
  for (const documentNumber of [...new Set(documentNumbers)]) {
    const fail = (code: NonNullable<Result['code']>): Result => ({
      documentNumber,
      ok: false,
      invoiceID: null,
      code,
    });
    const [existing] = await takenOver(ctx.db, caller.issuerId, connection.companyOrgNo, [documentNumber]);
    if (existing) {
      results.push(
        existing.issuerId === caller.issuerId && existing.state === 1
          ? { documentNumber, ok: true, invoiceID: existing.invoiceId, code: null }
          : fail('fortnox.already_sent'),
      );
      continue;
    }
    let inv: FortnoxInvoice;
    try {
      inv = await api.getInvoice(documentNumber);
    } catch (err) {
      if (err instanceof FortnoxError && err.failure === 'not_found') {
        results.push(fail('fortnox.invoice_not_found'));
        continue;
      }
      throw failureOf(err, log, 'invoice');
    }
    const totalMinor = decimalToScaled(inv.Total, 2);
    if (
      inv.Cancelled ||
      inv.Credit === 'true' ||
      inv.NoxFinans ||
      !inv.Booked ||
      totalMinor === null ||
      totalMinor <= 0 ||
      decimalToScaled(inv.Balance, 2) !== totalMinor
    ) {
      results.push(fail('fortnox.invoice_unavailable'));
      continue;
    }
    try {
      const customer = await api.getCustomer(inv.CustomerNumber);
      const pdf = await api.getInvoicePdf(documentNumber);
      results.push(
        await takeOverOne(ctx, caller, files, {
          inv,
          totalMinor,
          customer,
          pdf,
          companyOrgNo: connection.companyOrgNo,
          country: issuer.country,
        }),
      );
    } catch (err) {
      throw failureOf(err, log, 'take_over');
    }
  }
  const ids = results.flatMap((r) => (r.ok && r.invoiceID ? [r.invoiceID] : []));
  return { results, invoices: await pendingInvoices(ctx.db, caller.issuerId, ids, todayIn(ctx.now())) };
}

async function takeOverOne(
  ctx: AppContext,
  caller: Caller,
  files: FileStore,
  input: {
    inv: FortnoxInvoice;
    totalMinor: number;
    customer: Awaited<ReturnType<FortnoxApi['getCustomer']>>;
    pdf: Buffer;
    companyOrgNo: string;
    country: 'SE' | 'FI';
  },
): Promise<Result> {
  const { inv, customer, pdf } = input;
  const documentNumber = inv.DocumentNumber;
  const now = ctx.now();
  // Bytes first, then the rows: a failure in between leaves an unreferenced blob, never a row without bytes.
  const storageKey = randomUUID();
  await files.put(storageKey, pdf);
  try {
    return await ctx.db.transaction(async (tx) => {
      const organizationNumber = customer.OrganisationNumber || inv.OrganisationNumber || '';
      const found = await findRecipientByNumber(tx, caller.issuerId, organizationNumber);
      const country = (customer.CountryCode || 'SE').toUpperCase().slice(0, 2);
      const recipientId =
        found?.id ??
        (await insertRecipient(tx, {
          issuerId: caller.issuerId,
          name: (customer.Name || inv.CustomerName).slice(0, 45),
          address: customer.Address1 ?? '',
          address2: customer.Address2 ?? '',
          zipcode: customer.ZipCode ?? '',
          city: customer.City ?? '',
          country,
          email: customer.Email ?? '',
          phone: customer.Phone1 ?? '',
          organizationNumber,
          vat: customer.VATNumber ?? '',
          documentLanguage: documentLanguageForCountry(country === 'FI' ? 'FI' : 'SE'),
        }));
      const mapped = mapInvoice(inv, recipientId);
      if (!mapped.ok) throw new Unsupported();
      const fileId = await insertInvoiceFile(tx, {
        issuerId: caller.issuerId,
        role: 'invoice',
        filename: `Faktura ${documentNumber}.pdf`,
        contentType: 'application/pdf',
        size: pdf.length,
        sha256: createHash('sha256').update(pdf).digest('hex'),
        storageKey,
        uploadedBy: caller.userId,
      });
      // The register rules of the contract first (limits, total bounds): what fails them is not taken over.
      const body = invoiceBodySchema.safeParse({ ...mapped.body, invoiceFileID: fileId });
      if (!body.success) throw new Unsupported();
      let invoiceId: string;
      try {
        invoiceId = await writeInvoice(tx, caller.issuerId, body.data, {
          existingId: null,
          now,
          source: 'import',
          ownOcr: inv.OCR || null,
        });
      } catch (err) {
        if (err instanceof ApiError && err.status < 500 && !isDuplicate(err)) throw new Unsupported();
        throw err;
      }
      // Amounts to the öre: the invoice we wrote must total what Fortnox says, else nothing is kept.
      const [written] = await tx
        .select({ grossMinor: invoices.grossMinor })
        .from(invoices)
        .where(eq(invoices.id, invoiceId));
      if (written?.grossMinor !== input.totalMinor) throw new Unsupported();
      await markSource(tx, invoiceId);
      await insertTakenOver(tx, {
        issuerId: caller.issuerId,
        companyOrgNo: input.companyOrgNo,
        documentNumber,
        invoiceId,
        customerNumber: inv.CustomerNumber,
        createdBy: caller.userId,
        createdAt: now,
      });
      await tx.insert(invoiceEvents).values({
        invoiceId,
        issuerId: caller.issuerId,
        event: 1,
        userId: caller.userId,
        at: now,
        details: { source: 'fortnox', documentNumber },
      });
      return { documentNumber, ok: true, invoiceID: invoiceId, code: null };
    });
  } catch (err) {
    const fail = (code: NonNullable<Result['code']>): Result => ({
      documentNumber,
      ok: false,
      invoiceID: null,
      code,
    });
    if (err instanceof Unsupported) return fail('fortnox.invoice_unsupported');
    if (err instanceof ApiError && err.code === 'invoices.duplicate_number')
      return fail('invoices.duplicate_number');
    if (isUniqueViolation(err, 'invoices_issuer_ocr_idx')) return fail('invoices.duplicate_ocr');
    if (isUniqueViolation(err, 'invoices_issuer_number_idx')) return fail('invoices.duplicate_number');
    // Another request took the same Fortnox invoice over at the same moment: its result stands.
    if (isUniqueViolation(err, 'fortnox_invoices_document_idx')) {
      const [existing] = await takenOver(ctx.db, caller.issuerId, input.companyOrgNo, [documentNumber]);
      return existing?.issuerId === caller.issuerId && existing.state === 1
        ? { documentNumber, ok: true, invoiceID: existing.invoiceId, code: null }
        : fail('fortnox.already_sent');
    }
    throw err;
  }
}

class Unsupported extends Error {}

const isDuplicate = (err: ApiError) =>
  err.code === 'invoices.duplicate_number' || err.code === 'invoices.duplicate_ocr';

/** The pending invoices among `ids`, in the shape of the send page's list. */
async function pendingInvoices(
  db: Db,
  issuerId: string,
  ids: string[],
  today: string,
): Promise<PendingInvoice[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select({ invoice: invoices, recipientName: recipients.name, rejectionReason })
    .from(invoices)
    .innerJoin(recipients, eq(recipients.id, invoices.recipientId))
    .where(and(eq(invoices.issuerId, issuerId), eq(invoices.state, 1), inArray(invoices.id, ids)))
    .orderBy(asc(invoices.invoiceDate), asc(invoices.invoiceNumber));
  return rows.map((r) => ({
    ...summary(r.invoice, r.recipientName, today, r.rejectionReason),
    sendCode: sendDueDateCode(r.invoice.service as ServiceType, r.invoice.dueDate, today),
  }));
}

/**
 * Payments we received (services/payment-import.ts: an imported file's, or one an operator assigned):
 * those applied to an invoice taken over from Fortnox, of an issuer where a user has
 * limited_fortnox_bookkeeping, are queued to be registered in Fortnox, once each (the outbox's unique
 * key on the payment). Runs in the import's transaction, so a payment rolled back is never queued.
 */
export async function queueFortnoxPayments(
  tx: Tx,
  of: { fileId: string } | { paymentId: string },
  at: Date,
): Promise<number> {
  return queuePaymentsOf(tx, of, at);
}

/** Öre as the decimal Fortnox takes (`125050` → `"1250.50"`), from the digits, never a float. */
export function minorToDecimal(minor: number): string {
  const digits = String(Math.abs(minor)).padStart(3, '0');
  return `${minor < 0 ? '-' : ''}${digits.slice(0, -2)}.${digits.slice(-2)}`;
}

/** How long a try holds its payment: well beyond a call's time-out, so a late answer lands first. */
export const PAYMENT_CLAIM_MS = 2 * 60_000;

/**
 * Registers the queued payments in Fortnox (`POST /3/invoicepayments`, domain note §9), exactly once
 * each: a try claims its row for PAYMENT_CLAIM_MS and is counted before it is made; a payment tried
 * before (it may have reached Fortnox and timed out on the way back) is first looked for among
 * Fortnox's payments of the invoice (same amount and date, not one already matched to ours). A
 * connection that is not active leaves its payments queued for after a reconnect. Called by the daily
 * job and right after a payment import.
 */
export async function registerFortnoxPayments(
  ctx: Pick<AppContext, 'db' | 'config' | 'now' | 'fortnox'>,
  log: Log,
): Promise<{ registered: number; pending: number }> {
  const queued = await pendingPayments(ctx.db);
  let registered = 0;
  const byIssuer = new Map<string, OutboxRow[]>();
  for (const row of queued) byIssuer.set(row.issuerId, [...(byIssuer.get(row.issuerId) ?? []), row]);
  for (const [issuerId, rows] of byIssuer) {
    let api: FortnoxApi;
    try {
      api = await apiOf(ctx as AppContext, issuerId);
    } catch {
      continue;
    }
    for (const queuedRow of rows) {
      const now = ctx.now();
      const row = await claimPayment(ctx.db, queuedRow.id, now, new Date(now.getTime() + PAYMENT_CLAIM_MS));
      if (!row) continue;
      const amount = minorToDecimal(row.amountMinor);
      try {
        if (row.attempts > 1) {
          const ours = new Set(
            (await donePaymentsOf(ctx.db, issuerId, row.documentNumber)).map((d) => d.fortnoxPaymentNumber),
          );
          const there = (await api.listInvoicePayments(row.documentNumber)).find(
            (p) =>
              !ours.has(String(p.Number)) &&
              decimalToScaled(p.Amount, 2) === row.amountMinor &&
              p.PaymentDate === row.paymentDate,
          );
          if (there) {
            await paymentDone(ctx.db, row.id, String(there.Number), ctx.now());
            registered++;
            continue;
          }
        }
        const payment = await api.createInvoicePayment({
          invoiceNumber: row.documentNumber,
          amount,
          paymentDate: row.paymentDate,
        });
        await paymentDone(ctx.db, row.id, String(payment.Number), ctx.now());
        registered++;
      } catch (err) {
        const unanswered =
          err instanceof FortnoxError && (err.failure === 'timeout' || err.failure === 'network');
        const text =
          err instanceof FortnoxError
            ? err.failure
            : err instanceof ConnectionRefused
              ? 'refused'
              : String(err);
        await paymentFailed(ctx.db, row.id, text, !unanswered);
        log.warn({ outbox: row.id, failure: text }, 'fortnox: registering a payment failed');
        if (err instanceof ConnectionRefused) break;
      }
    }
  }
  return { registered, pending: queued.length - registered };
}
