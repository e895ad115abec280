// Over 500 lines on purpose: every table of the database in one file, in the order of the migrations,
// so a column and its index are found next to each other.
import { LANGUAGES } from '@portal/contracts';
import { asc, type SQL, sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  bigserial,
  boolean,
  char,
  customType,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  pgView,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

/** PostgreSQL bytea as a Node Buffer. */
const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => Buffer.from(value),
});

// The column shapes most tables share; each writes the same SQL type as the migrations.
/** The primary key of most tables: a random UUID. */
const uuidKey = () => uuid('id').primaryKey().defaultRandom();
/** A point in time: timestamptz. */
const instant = <N extends string>(name: N) => timestamp(name, { withTimezone: true });
const createdAt = () => instant('created_at').notNull().defaultNow();
const updatedAt = () => instant('updated_at').notNull().defaultNow();
/** A whole number read as a JS number: bigint, used for minor units, counts and sequences. */
const int64 = <N extends string>(name: N) => bigint(name, { mode: 'number' });
/** A calendar day as `YYYY-MM-DD`. */
const day = <N extends string>(name: N) => date(name, { mode: 'string' });
/** An ISO 4217 currency code. */
const currency = () => char('currency', { length: 3 }).notNull();

/** A branded login group (`/{groupid}/login`). The id is the slug in the URL. */
export const groups = pgTable('groups', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  logo: text('logo'),
  background: text('background'),
  createdAt: createdAt(),
});

/** The customer company. Every customer-owned row carries its issuer id. */
export const issuers = pgTable('issuers', {
  id: uuidKey(),
  name: text('name').notNull(),
  email: text('email').notNull(),
  organizationNo: text('organization_no').notNull(),
  vat: text('vat').notNull(),
  telephone: text('telephone').notNull(),
  address1: text('address1').notNull(),
  city: text('city').notNull(),
  zipcode: text('zipcode').notNull(),
  country: char('country', { length: 2 }).notNull().$type<'SE' | 'FI'>(),
  bankAccountVerified: boolean('bank_account_verified').notNull().default(false),
  /**
   * The bankgiro number we collect this issuer's invoices on (printed on its invoices). Incoming BGMAX
   * payments are matched by the receiving bankgiro of their section first, then by the OCR reference,
   * because OCR references are unique per issuer only (docs/MONEY.md).
   */
  collectionBankgiro: text('collection_bankgiro').unique(),
  /** Days past due after which a recourse service's unpaid invoice is charged back (docs/MONEY.md). */
  recourseDays: integer('recourse_days').notNull().default(60),
  /** Days an open debt of the issuer waits for payouts before it becomes a debt claim (docs/MONEY.md). */
  debtClaimDays: integer('debt_claim_days').notNull().default(30),
  createdAt: createdAt(),
});

/** The issuer that owns the row. */
const issuerRef = () =>
  uuid('issuer_id')
    .notNull()
    .references(() => issuers.id);

export const users = pgTable(
  'users',
  {
    id: uuidKey(),
    issuerId: issuerRef(),
    groupId: text('group_id').references(() => groups.id),
    username: text('username').notNull(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    email: text('email').notNull(),
    language: text('language').$type<'sv-SE' | 'en-US' | 'fi-FI'>(),
    passwordHash: text('password_hash').notNull(),
    /** Null while the initial password is in use: the blocking overlay asks for a new one. */
    lastPasswordChange: instant('last_password_change'),
    force2fa: boolean('force_2fa').notNull().default(false),
    /** AES-256-GCM sealed base32 secret of an enabled TOTP, or null. */
    totpSecret: text('totp_secret'),
    /** Sealed secret of a setup in progress (GET /limited/2fa/enable), or null. */
    totpPendingSecret: text('totp_pending_secret'),
    /** The last accepted TOTP time step: a code is accepted once only. */
    totpLastStep: integer('totp_last_step'),
    fortnoxActive: boolean('fortnox_active'),
    active: boolean('active').notNull().default(true),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('users_username_lower_idx').on(sql`lower(${t.username})`), index().on(t.issuerId)],
);

/** A user (who did or owns something); with `cascade` the row goes with the user. */
const userRef = <N extends string>(name: N, onDelete?: 'cascade') =>
  uuid(name)
    .notNull()
    .references(() => users.id, { onDelete });

export const userAbilities = pgTable(
  'user_abilities',
  {
    userId: userRef('user_id', 'cascade'),
    ability: text('ability').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.ability] })],
);

/**
 * Opaque bearer tokens; only their SHA-256 is stored. `kind` 'session' is a signed-in session;
 * 'two_factor_step' is the first step of a 2FA sign-in and can only be spent on login/limited-2fa.
 */
export const sessions = pgTable(
  'sessions',
  {
    id: uuidKey(),
    tokenHash: text('token_hash').notNull(),
    userId: userRef('user_id', 'cascade'),
    kind: text('kind').notNull().$type<'session' | 'two_factor_step'>(),
    createdAt: createdAt(),
    lastUsedAt: instant('last_used_at').notNull().defaultNow(),
    expiresAt: instant('expires_at').notNull(),
    failedAttempts: integer('failed_attempts').notNull().default(0),
    revokedAt: instant('revoked_at'),
    ip: text('ip'),
    userAgent: text('user_agent'),
  },
  (t) => [uniqueIndex().on(t.tokenHash), index().on(t.userId)],
);

export const passwordResets = pgTable(
  'password_resets',
  {
    id: uuidKey(),
    tokenHash: text('token_hash').notNull(),
    userId: userRef('user_id', 'cascade'),
    createdAt: createdAt(),
    expiresAt: instant('expires_at').notNull(),
    usedAt: instant('used_at'),
  },
  (t) => [uniqueIndex().on(t.tokenHash)],
);

/** One row per failed sign-in, by key `u:<username>` or `ip:<address>`; counted in a sliding window. */
export const loginFailures = pgTable(
  'login_failures',
  {
    id: uuidKey(),
    key: text('key').notNull(),
    at: instant('at').notNull().defaultNow(),
  },
  (t) => [index().on(t.key, t.at)],
);

export const messages = pgTable(
  'messages',
  {
    id: uuidKey(),
    issuerId: issuerRef(),
    messageType: text('message_type').notNull(),
    /** The user who wrote it; null when we (the finance company) wrote it. */
    authorUserId: uuid('author_user_id').references(() => users.id),
    author: text('author').notNull(),
    invoiceId: uuid('invoice_id'),
    invoiceNumber: text('invoice_number'),
    title: text('title').notNull(),
    text: text('text').notNull(),
    date: instant('date').notNull().defaultNow(),
    read: boolean('read').notNull().default(false),
    /** A notice of ours (services/notices.ts): its code and parameters, worded in the reader's language. */
    code: text('code'),
    params: jsonb('params').$type<Record<string, string | number>>(),
  },
  (t) => [index().on(t.issuerId, t.date)],
);

/** Mail that was not handed to an SMTP server (embedded mode keeps it here for the developer). */
export const outboxMails = pgTable('outbox_mails', {
  id: uuidKey(),
  to: text('to').notNull(),
  subject: text('subject').notNull(),
  text: text('text').notNull(),
  createdAt: createdAt(),
});

/**
 * Our own staff who work in the back office (docs/BACKOFFICE.md). Apart from customer users: an
 * operator belongs to no issuer and signs in at `/api/backoffice/login` only.
 */
export const operators = pgTable(
  'operators',
  {
    id: uuidKey(),
    username: text('username').notNull(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    /** argon2id, as for users (lib/passwords.ts). */
    passwordHash: text('password_hash').notNull(),
    active: boolean('active').notNull().default(true),
    /** Sealed TOTP secret (as users'), set with `npm run operators -- enable-2fa`; null = password only. */
    totpSecret: text('totp_secret'),
    /** The last accepted TOTP time step: a code is accepted once. */
    totpLastStep: integer('totp_last_step'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('operators_username_lower_idx').on(sql`lower(${t.username})`)],
);

/**
 * Opaque bearer tokens of operators, apart from `sessions`: the auth hook looks a token up in the
 * table of the route's kind only, so neither kind of token can open the other kind's routes.
 */
export const operatorSessions = pgTable(
  'operator_sessions',
  {
    id: uuidKey(),
    tokenHash: text('token_hash').notNull(),
    operatorId: uuid('operator_id')
      .notNull()
      .references(() => operators.id, { onDelete: 'cascade' }),
    /** A full session, or the short-lived token between the password and the TOTP code. */
    kind: text('kind').notNull().default('session').$type<'session' | 'two_factor_step'>(),
    failedAttempts: integer('failed_attempts').notNull().default(0),
    createdAt: createdAt(),
    lastUsedAt: instant('last_used_at').notNull().defaultNow(),
    expiresAt: instant('expires_at').notNull(),
    revokedAt: instant('revoked_at'),
    ip: text('ip'),
    userAgent: text('user_agent'),
  },
  (t) => [uniqueIndex().on(t.tokenHash), index().on(t.operatorId)],
);

/** Security events: sign-in ok/failed, 2FA changes, password changes, resets. Never a secret. */
export const auditLog = pgTable(
  'audit_log',
  {
    id: uuidKey(),
    at: instant('at').notNull().defaultNow(),
    event: text('event').notNull(),
    userId: uuid('user_id'),
    /** The operator of a back-office event (sign-in, credit decision); null for customer events. */
    operatorId: uuid('operator_id'),
    issuerId: uuid('issuer_id'),
    username: text('username'),
    ip: text('ip'),
    details: jsonb('details').$type<Record<string, unknown>>(),
  },
  (t) => [index().on(t.userId, t.at)],
);

/**
 * The key that makes two party numbers the same number (packages/domain `partyNumberKey`): the digits,
 * of a 12-digit form the last ten, so `556036-0793`, `5560360793` and `165560360793` are one number.
 */
export function partyNumberKeySql(organizationNumber: unknown): SQL {
  return sql`right(regexp_replace(${organizationNumber}, '[^0-9]', '', 'g'), 10)`;
}

/**
 * The customer's register of invoice recipients (its own customers). Within an issuer no two
 * recipients have the same party number (issue #11); another issuer's recipient may.
 */
export const recipients = pgTable(
  'recipients',
  {
    id: uuidKey(),
    issuerId: issuerRef(),
    name: text('name').notNull(),
    address: text('address').notNull().default(''),
    address2: text('address2').notNull().default(''),
    zipcode: text('zipcode').notNull(),
    city: text('city').notNull(),
    country: char('country', { length: 2 }).notNull().default('SE'),
    email: text('email').notNull(),
    phone: text('phone').notNull().default(''),
    organizationNumber: text('organization_number').notNull().default(''),
    vat: text('vat').notNull().default(''),
    /** The customer's industry code (SNI 2007, five digits), shown in the ledger report; '' when unknown. */
    sni: text('sni').notNull().default(''),
    /**
     * The language of the recipient's invoice documents (issue #11, migration 0021). Every insert of
     * the portal writes it, from the form or the country; the default is only for a row written by hand.
     */
    documentLanguage: text('document_language', { enum: LANGUAGES }).notNull().default('sv-SE'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index().on(t.issuerId, t.name),
    index().on(t.issuerId, t.organizationNumber),
    uniqueIndex('recipients_issuer_party_number_idx')
      .on(t.issuerId, partyNumberKeySql(t.organizationNumber))
      .where(sql`regexp_replace(${t.organizationNumber}, '[^0-9]', '', 'g') <> ''`),
  ],
);

/** Invoice articles: a price list the invoice form picks rows from. */
export const articles = pgTable(
  'articles',
  {
    id: uuidKey(),
    issuerId: issuerRef(),
    articleNumber: text('article_number').notNull(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    priceMinor: int64('price_minor').notNull(),
    currency: currency(),
    unit: text('unit').notNull(),
    vatBasisPoints: integer('vat_basis_points').notNull(),
    recipientId: uuid('recipient_id').references(() => recipients.id),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex().on(t.issuerId, t.articleNumber), index().on(t.issuerId, t.name)],
);

/** The embedded company register behind company search (a provider interface can replace it). */
export const companies = pgTable(
  'companies',
  {
    organizationNumber: text('organization_number').primaryKey(),
    name: text('name').notNull(),
    address: text('address').notNull(),
    zipcode: text('zipcode').notNull(),
    city: text('city').notNull(),
    country: char('country', { length: 2 }).notNull(),
    vat: text('vat').notNull().default(''),
  },
  (t) => [index('companies_name_lower_idx').on(sql`lower(${t.name})`)],
);

/** An invoice of the issuer to one of its recipients. Amounts in minor units of `currency`. */
export const invoices = pgTable(
  'invoices',
  {
    id: uuidKey(),
    issuerId: issuerRef(),
    recipientId: uuid('recipient_id')
      .notNull()
      .references(() => recipients.id),
    invoiceNumber: text('invoice_number').notNull(),
    service: text('service').notNull(),
    state: integer('state').notNull(),
    /** The credit decision on a financed invoice, when one was made. */
    decision: text('decision').$type<'approved' | 'rejected'>(),
    currency: currency(),
    invoiceDate: day('invoice_date').notNull(),
    dueDate: day('due_date').notNull(),
    orderReference: text('order_reference').notNull().default(''),
    issuerContact: text('issuer_contact').notNull().default(''),
    recipientContact: text('recipient_contact').notNull().default(''),
    ocr: text('ocr'),
    netMinor: int64('net_minor').notNull(),
    vatMinor: int64('vat_minor').notNull(),
    grossMinor: int64('gross_minor').notNull(),
    deductionMinor: int64('deduction_minor').notNull().default(0),
    toPayMinor: int64('to_pay_minor').notNull(),
    remainingMinor: int64('remaining_minor').notNull(),
    rotRut: jsonb('rot_rut').$type<{
      type: 'none' | 'rot' | 'rut';
      personalNumber: string;
      propertyDesignation: string;
      housingCoopNumber: string;
    }>(),
    vatLines: jsonb('vat_lines')
      .$type<{ vatBasisPoints: number; netMinor: number; vatMinor: number }[]>()
      .notNull(),
    source: text('source').notNull().default('form'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    sentAt: instant('sent_at'),
    /**
     * How far the daily job has taken an unpaid invoice past its due date: 0 nothing, 1 overdue noted,
     * 2 reminder 1, 3 reminder 2, 4 handed to collection (docs/MONEY.md). Each step is taken once.
     */
    dunningStep: integer('dunning_step').notNull().default(0),
    /** The last day late-payment interest has been charged through; null when none yet. */
    interestThrough: day('interest_through'),
  },
  (t) => [
    uniqueIndex('invoices_issuer_number_idx').on(t.issuerId, t.invoiceNumber),
    // Unique per issuer; text_pattern_ops also serves the prefix search (migration 0016).
    uniqueIndex('invoices_issuer_ocr_idx').on(t.issuerId, sql`${t.ocr} text_pattern_ops`),
    index('invoices_issuer_state_date_idx').on(t.issuerId, t.state, t.invoiceDate),
    index('invoices_issuer_date_idx').on(t.issuerId, t.invoiceDate, t.id),
    index('invoices_issuer_due_idx').on(t.issuerId, t.dueDate, t.id),
    // Prefix search on the number and the OCR reference.
    index('invoices_issuer_number_prefix_idx').on(
      t.issuerId,
      sql`lower(${t.invoiceNumber}) text_pattern_ops`,
    ),
    // With the issuer and the id: the list sorted by recipient name reads each recipient's invoices in order (migration 0035).
    index('invoices_recipient_idx').on(t.recipientId, t.issuerId, t.id),
    // The back office's queue of credit decisions across issuers (INVOICE_STATE.awaitingCreditDecision = 9, oldest sent first; migration SQL, so literal).
    index('invoices_awaiting_decision_idx').on(t.sentAt, t.id).where(sql`${t.state} = 9`),
    // The daily job's walk over unpaid invoices (UNPAID_INVOICE_STATES) by due date (overdue, reminders, recourse, interest).
    index('invoices_unpaid_due_idx').on(t.dueDate, t.id).where(sql`${t.state} in (2, 3)`),
    // The invoice list of unpaid invoices by due date: filters active and overdue, the overdue buckets (migration 0031).
    index('invoices_issuer_unpaid_due_idx').on(t.issuerId, t.dueDate, t.id).where(sql`${t.state} in (2, 3)`),
    // The invoice list's filter `rejected`: the few rejected invoices of an issuer (migration 0034).
    index('invoices_issuer_rejected_idx')
      .on(t.issuerId, t.invoiceDate, t.id)
      .where(sql`${t.decision} = 'rejected'`),
  ],
);

/** An invoice the row belongs to or speaks of; with `cascade` the row goes with the invoice. */
const invoiceRef = <N extends string>(name: N, onDelete?: 'cascade') =>
  uuid(name)
    .notNull()
    .references(() => invoices.id, { onDelete });

export const invoiceRows = pgTable(
  'invoice_rows',
  {
    id: uuidKey(),
    invoiceId: invoiceRef('invoice_id', 'cascade'),
    position: integer('position').notNull(),
    articleNumber: text('article_number').notNull().default(''),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    quantityMilli: int64('quantity_milli').notNull(),
    unit: text('unit').notNull(),
    unitPriceMinor: int64('unit_price_minor').notNull(),
    vatBasisPoints: integer('vat_basis_points').notNull(),
    rotRut: boolean('rot_rut').notNull().default(false),
    netMinor: int64('net_minor').notNull(),
  },
  (t) => [uniqueIndex('invoice_rows_position_idx').on(t.invoiceId, t.position)],
);

/** The timeline of an invoice (event numbers of spec §4). */
export const invoiceEvents = pgTable(
  'invoice_events',
  {
    id: uuidKey(),
    // References checked per statement by triggers, not foreign keys (migration 0015): the invoice
    // (its events go with it) and the issuer.
    invoiceId: uuid('invoice_id').notNull(),
    issuerId: uuid('issuer_id').notNull(),
    event: integer('event').notNull(),
    /** Insertion order: events written in one transaction share their time but keep their order. */
    seq: bigserial('seq', { mode: 'number' }).notNull(),
    at: instant('at').notNull().defaultNow(),
    userId: uuid('user_id'),
    details: jsonb('details').$type<Record<string, string | number>>(),
  },
  (t) => [index('invoice_events_invoice_idx').on(t.invoiceId, t.at)],
);

/**
 * The answer of a request made with an Idempotency-Key: a retry with the same key and body gets the
 * same answer; with another body, 409.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    issuerId: uuid('issuer_id').notNull(),
    key: text('key').notNull(),
    operation: text('operation').notNull(),
    requestHash: text('request_hash').notNull(),
    statusCode: integer('status_code').notNull(),
    response: jsonb('response').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.issuerId, t.key] })],
);

/** Per-issuer sequences (the OCR reference base); bumped with an upsert, so concurrent sends never share one. */
export const issuerCounters = pgTable(
  'issuer_counters',
  {
    issuerId: issuerRef(),
    name: text('name').notNull(),
    value: int64('value').notNull(),
  },
  (t) => [primaryKey({ columns: [t.issuerId, t.name] })],
);

/** A PDF the customer uploaded: an invoice's own PDF or an attachment. The bytes are in the file store. */
export const invoiceFiles = pgTable(
  'invoice_files',
  {
    id: uuidKey(),
    issuerId: issuerRef(),
    /** Null until the file is attached to an invoice. */
    invoiceId: uuid('invoice_id').references(() => invoices.id, { onDelete: 'cascade' }),
    role: text('role').notNull().$type<'invoice' | 'attachment'>(),
    filename: text('filename').notNull(),
    contentType: text('content_type').notNull(),
    size: integer('size').notNull(),
    sha256: text('sha256').notNull(),
    storageKey: text('storage_key').notNull(),
    uploadedBy: uuid('uploaded_by'),
    createdAt: createdAt(),
  },
  (t) => [
    index('invoice_files_invoice_idx').on(t.invoiceId),
    index('invoice_files_issuer_idx').on(t.issuerId, t.createdAt),
  ],
);

/** File bytes when the server runs on PostgreSQL, so every server behind the load balancer sees every file. */
export const fileBlobs = pgTable('file_blobs', {
  key: text('key').primaryKey(),
  data: bytea('data').notNull(),
});

/**
 * Count and gross sum of an issuer's invoices per recipient, state, credit rejection and currency, kept
 * by a trigger on `invoices` in the same transaction as every change (migrations 0006 and 0007). The
 * list answers its totals from here instead of adding up 100,000 invoices per request, also for a
 * recipient filter or a search by recipient name (the recipient in the key, migration 0007).
 */
export const invoiceStateTotals = pgTable(
  'invoice_state_totals',
  {
    issuerId: uuid('issuer_id').notNull(),
    recipientId: uuid('recipient_id').notNull(),
    state: integer('state').notNull(),
    rejected: boolean('rejected').notNull(),
    currency: currency(),
    invoiceCount: int64('invoice_count').notNull(),
    grossMinor: int64('gross_minor').notNull(),
  },
  (t) => [primaryKey({ columns: [t.issuerId, t.recipientId, t.state, t.rejected, t.currency] })],
);

/**
 * The dashboard's figures, kept by one statement trigger on `invoices` (migration 0012) so that a
 * request reads a few hundred small rows instead of a year of invoices. Sales count sent invoices
 * (every state but 1, 7 and 11) by their amount to pay; the unpaid dues count states 2 and 3 by their
 * remaining amount. A key whose count falls to zero keeps its row.
 */
export const invoiceSalesDays = pgTable(
  'invoice_sales_days',
  {
    issuerId: uuid('issuer_id').notNull(),
    currency: currency(),
    invoiceDate: day('invoice_date').notNull(),
    invoiceCount: int64('invoice_count').notNull(),
    toPayMinor: int64('to_pay_minor').notNull(),
  },
  (t) => [primaryKey({ name: 'invoice_sales_days_pk', columns: [t.issuerId, t.currency, t.invoiceDate] })],
);

/** Sent invoices per issuer, currency, month (its first day) and recipient: the top customers. */
export const invoiceSalesMonths = pgTable(
  'invoice_sales_months',
  {
    issuerId: uuid('issuer_id').notNull(),
    currency: currency(),
    month: day('month').notNull(),
    recipientId: uuid('recipient_id').notNull(),
    invoiceCount: int64('invoice_count').notNull(),
    toPayMinor: int64('to_pay_minor').notNull(),
  },
  (t) => [
    primaryKey({
      name: 'invoice_sales_months_pk',
      columns: [t.issuerId, t.currency, t.month, t.recipientId],
    }),
  ],
);

/** Unpaid invoices (states 2 and 3) per issuer, currency and due date: the overdue buckets. */
export const invoiceUnpaidDues = pgTable(
  'invoice_unpaid_dues',
  {
    issuerId: uuid('issuer_id').notNull(),
    currency: currency(),
    dueDate: day('due_date').notNull(),
    invoiceCount: int64('invoice_count').notNull(),
    remainingMinor: int64('remaining_minor').notNull(),
    /** Gross amount of the same invoices (the overdue bucket list's totals, migration 0023). */
    grossMinor: int64('gross_minor').notNull().default(0),
  },
  (t) => [primaryKey({ name: 'invoice_unpaid_dues_pk', columns: [t.issuerId, t.currency, t.dueDate] })],
);

/**
 * Fees we charge an issuer per service and currency (docs/MONEY.md): a percentage of the invoice's
 * amount to pay in basis points (150 = 1.50 %) plus a fixed fee per invoice in minor units.
 */
export const issuerFees = pgTable(
  'issuer_fees',
  {
    issuerId: issuerRef(),
    service: text('service').notNull(),
    currency: currency(),
    percentBasisPoints: integer('percent_basis_points').notNull().default(0),
    fixedMinor: int64('fixed_minor').notNull().default(0),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.issuerId, t.service, t.currency] })],
);

/**
 * A settlement ("transfer cost", spec §3): one payout batch's money to one issuer in one currency. Its
 * totals are the sums of its rows; `number` is the id the customer sees.
 */
export const settlements = pgTable(
  'settlements',
  {
    id: uuidKey(),
    number: bigserial('number', { mode: 'number' }).notNull().unique(),
    issuerId: issuerRef(),
    /** The payout run that made it; one run makes one settlement per issuer and currency. */
    batchId: uuid('batch_id').notNull(),
    currency: currency(),
    /** The day the money is paid to the issuer's bank account. */
    payoutDate: day('payout_date').notNull(),
    grossMinor: int64('gross_minor').notNull(),
    feeMinor: int64('fee_minor').notNull(),
    /** What reaches the issuer: gross − fees; negative when charge-backs exceed the payouts. */
    totalPayoutMinor: int64('total_payout_minor').notNull(),
    rowCount: integer('row_count').notNull(),
    operatorId: uuid('operator_id'),
    /** The issuer's verified account the money went to (null: made before migration 0026). */
    bankAccountId: uuid('bank_account_id').references((): AnyPgColumn => verifiedBankAccounts.id),
    createdAt: createdAt(),
  },
  (t) => [index('settlements_issuer_created_idx').on(t.issuerId, t.createdAt, t.id)],
);

/**
 * One line of a settlement: a financed invoice paid out (`payout`), a payment we collected for a
 * service we do not finance and pass on (`payment`), or a recourse deducted (`chargeBack`, negative).
 */
export const settlementRows = pgTable(
  'settlement_rows',
  {
    id: uuidKey(),
    settlementId: uuid('settlement_id')
      .notNull()
      .references(() => settlements.id),
    issuerId: uuid('issuer_id').notNull(),
    /** The invoice of the row; null for a plan's payout (`planId`), exactly one of the two is set. */
    invoiceId: uuid('invoice_id').references(() => invoices.id),
    planId: uuid('plan_id').references((): AnyPgColumn => installmentPlans.id),
    kind: text('kind').notNull().$type<'payout' | 'payment' | 'chargeBack' | 'planPayout' | 'deduction'>(),
    /** The payment passed on, for `payment` rows; the deduction charged, for `deduction` rows. */
    paymentId: uuid('payment_id'),
    position: integer('position').notNull(),
    grossMinor: int64('gross_minor').notNull(),
    feeMinor: int64('fee_minor').notNull(),
    netMinor: int64('net_minor').notNull(),
  },
  (t) => [
    index('settlement_rows_settlement_idx').on(t.settlementId, t.position),
    index('settlement_rows_invoice_idx').on(t.invoiceId),
    // A financed invoice is paid out once, charged back once; a collected payment is passed on once.
    uniqueIndex('settlement_rows_payout_once_idx').on(t.invoiceId).where(sql`${t.kind} = 'payout'`),
    uniqueIndex('settlement_rows_charge_back_once_idx').on(t.invoiceId).where(sql`${t.kind} = 'chargeBack'`),
    uniqueIndex('settlement_rows_payment_once_idx').on(t.paymentId).where(sql`${t.paymentId} is not null`),
    uniqueIndex('settlement_rows_plan_payout_once_idx').on(t.planId).where(sql`${t.kind} = 'planPayout'`),
  ],
);

/** An imported BGMAX file. The same bytes (by SHA-256) are never imported twice. */
export const paymentFiles = pgTable('payment_files', {
  id: uuidKey(),
  sha256: text('sha256').notNull().unique(),
  filename: text('filename').notNull(),
  /** TK01's timestamp and test mark. */
  writtenAt: text('written_at').notNull(),
  testMark: char('test_mark', { length: 1 }).notNull(),
  paymentCount: integer('payment_count').notNull(),
  /** New payments registered by this import (a payment already known from another file is not). */
  registeredCount: integer('registered_count').notNull(),
  matchedCount: integer('matched_count').notNull(),
  unmatchedCount: integer('unmatched_count').notNull(),
  operatorId: uuid('operator_id'),
  importedAt: instant('imported_at').notNull().defaultNow(),
});

/**
 * An incoming payment (BGMAX TK20/TK21 with its TK22-29 details). `dedupeKey` (receiving bankgiro,
 * payment date, BGC serial number, record type) makes a payment count once even when it arrives in two
 * different files. Matched: `invoiceId` set, `appliedMinor` reduced the invoice's remaining amount and
 * `overpaidMinor` is the rest. Unmatched payments wait for an operator; deductions (TK21) are kept
 * apart from them and booked on payment_deductions (docs/MONEY.md).
 */
export const payments = pgTable(
  'payments',
  {
    id: uuidKey(),
    // References checked per statement by triggers, not foreign keys (migration 0015).
    fileId: uuid('file_id').notNull(),
    dedupeKey: text('dedupe_key').notNull().unique(),
    receivingBankgiro: text('receiving_bankgiro').notNull(),
    issuerId: uuid('issuer_id'),
    invoiceId: uuid('invoice_id'),
    /**
     * `deduction`: a TK21 (or a split payment's TK23 part), money the payer took off the deposit; never
     * an invoice's, never assigned. `information`: a zero amount, kept and shown, never booked or assigned.
     * `claim`: a payment of an issuer's debt claim (`claimId`), to our own bankgiro; no invoice.
     */
    status: text('status')
      .notNull()
      .$type<'matched' | 'unmatched' | 'assigned' | 'deduction' | 'information' | 'claim'>(),
    reference: text('reference').notNull(),
    /** Signed: a TK21 deduction is negative. */
    amountMinor: int64('amount_minor').notNull(),
    currency: currency(),
    paymentDate: day('payment_date').notNull(),
    payerBankgiro: text('payer_bankgiro'),
    payerName: text('payer_name').notNull().default(''),
    channel: integer('channel').notNull(),
    bgcSerial: text('bgc_serial').notNull(),
    /**
     * A part of a payment the payer split over its extra references: the TK22/TK23's place among them
     * (1-based, file order); null for a whole payment (migration 0030).
     */
    part: integer('part'),
    appliedMinor: int64('applied_minor').notNull().default(0),
    overpaidMinor: int64('overpaid_minor').notNull().default(0),
    /**
     * The invoice's remaining amount after this payment, set when it is applied to an invoice: then
     * the timeline reads its events (paid, part paid, overpayment) from this row (`invoiceTimeline`).
     * Null when unmatched, a deduction, or applied before migration 0017 (events stored then).
     */
    remainingAfterMinor: int64('remaining_after_minor'),
    /** Applied to a charged-back invoice: the money was passed on to the issuer. */
    forwarded: boolean('forwarded').notNull().default(false),
    /**
     * Order of writing, from the events' sequence: on the timeline, payments of one invoice in one file
     * keep the file's order, and stored events written at the same instant keep theirs (migration 0017).
     * An assignment draws a new number.
     */
    seq: int64('seq').notNull().default(sql`nextval('invoice_events_seq_seq')`),
    assignedBy: uuid('assigned_by'),
    assignedAt: instant('assigned_at'),
    /** The debt claim a `claim` payment paid (migration 0028; checked by check-books, no foreign key). */
    claimId: uuid('claim_id'),
    /**
     * How an operator resolved a deduction (migration 0029, docs/MONEY.md "Deductions (TK21)"): null
     * while it waits on payment_deductions; `chargeIssuer` or `settleInvoice` once, with who and when.
     */
    deductionAction: text('deduction_action').$type<'chargeIssuer' | 'settleInvoice'>(),
    resolvedBy: uuid('resolved_by'),
    resolvedAt: instant('resolved_at'),
    createdAt: createdAt(),
  },
  (t) => [
    index('payments_issuer_date_idx').on(t.issuerId, t.paymentDate, t.id),
    // An invoice's payments, also with its issuer (the detail's timeline; migration 0033).
    index('payments_invoice_idx').on(t.invoiceId, t.issuerId),
    index('payments_unmatched_idx').on(t.createdAt).where(sql`${t.status} = 'unmatched'`),
    index('payments_information_idx').on(t.createdAt).where(sql`${t.status} = 'information'`),
    index('payments_claim_idx').on(t.claimId).where(sql`${t.claimId} is not null`),
    index('payments_open_deductions_idx')
      .on(t.createdAt, t.id)
      .where(sql`${t.status} = 'deduction' and ${t.deductionAction} is null`),
  ],
);

/**
 * The whole timeline of invoices (migration 0017): the stored `invoiceEvents` and the events of the
 * payments applied to invoices (6 paid, 7 part paid, 21 overpayment), which are read from `payments`
 * instead of being written twice. `id` is the event's id, or the payment's id and the event number.
 * Read it in `timelineOrder`.
 */
export const invoiceTimeline = pgView('invoice_timeline', {
  id: text('id').notNull(),
  invoiceId: uuid('invoice_id').notNull(),
  issuerId: uuid('issuer_id').notNull(),
  event: integer('event').notNull(),
  at: instant('at').notNull(),
  userId: uuid('user_id'),
  details: jsonb('details').$type<Record<string, string | number>>(),
  seq: int64('seq').notNull(),
  /** A payment's paid or part paid (0) comes before its overpayment (1). */
  sub: integer('sub').notNull(),
}).existing();

/** The order of a timeline: by time, then as written (one sequence for events and payments). */
export const timelineOrder = [asc(invoiceTimeline.at), asc(invoiceTimeline.seq), asc(invoiceTimeline.sub)];

/**
 * The double-entry book (docs/MONEY.md). Every movement of money is one journal: postings with the
 * same `journalId` whose signed amounts (debit positive, credit negative) sum to zero. Per invoice, the
 * `receivable` postings sum to the invoice's remaining amount.
 */
export const postings = pgTable(
  'postings',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    journalId: uuid('journal_id').notNull(),
    /**
     * Null only for money no issuer can be told yet (a payment to an unknown bankgiro). This and
     * `invoiceId` are references checked per statement by triggers, not foreign keys (migration 0015).
     */
    issuerId: uuid('issuer_id'),
    invoiceId: uuid('invoice_id'),
    /** The installment plan of a plan's posting (plan_receivable, its payout); checked like invoiceId. */
    planId: uuid('plan_id'),
    account: text('account').notNull(),
    amountMinor: int64('amount_minor').notNull(),
    currency: currency(),
    kind: text('kind').notNull(),
    settlementId: uuid('settlement_id'),
    paymentId: uuid('payment_id'),
    /**
     * The debt claim the posting belongs to (migration 0028): an issuer_payable posting a claim took
     * (no payout run takes it then), the claim's journal and its payments.
     */
    claimId: uuid('claim_id'),
    at: instant('at').notNull().defaultNow(),
  },
  (t) => [
    index('postings_invoice_idx').on(t.invoiceId, t.account),
    index('postings_plan_idx').on(t.planId, t.account).where(sql`${t.planId} is not null`),
    // The ledger report's receivable postings of an issuer up to a date (migration 0018).
    index('postings_receivable_idx').on(t.issuerId, t.at).where(sql`${t.account} = 'receivable'`),
    // What the next payout run settles: the issuer's payable postings no settlement or claim has taken.
    // Migration 0032 adds INCLUDE (amount_minor), which drizzle cannot say: the open balance's sum
    // reads the index only.
    index('postings_unsettled_idx')
      .on(t.issuerId, t.currency, t.id)
      .where(sql`${t.account} = 'issuer_payable' and ${t.settlementId} is null and ${t.claimId} is null`),
    index('postings_claim_idx').on(t.claimId, t.account).where(sql`${t.claimId} is not null`),
  ],
);

/**
 * A debt claim (issue #16, migration 0028, docs/MONEY.md "Debt claims"): what an issuer owes us once
 * its charge backs exceeded its payouts for `issuers.debt_claim_days`, claimed with an OCR reference
 * and a due date, paid to our own bankgiro. `number` is what the customer sees.
 */
export const issuerDebtClaims = pgTable(
  'issuer_debt_claims',
  {
    id: uuidKey(),
    number: bigserial('number', { mode: 'number' }).notNull().unique(),
    issuerId: issuerRef(),
    currency: currency(),
    /** What the issuer owes: −(gross − fees) of the taken postings. */
    amountMinor: int64('amount_minor').notNull(),
    paidMinor: int64('paid_minor').notNull().default(0),
    grossMinor: int64('gross_minor').notNull(),
    feeMinor: int64('fee_minor').notNull(),
    rowCount: integer('row_count').notNull(),
    ocr: text('ocr').notNull().unique(),
    claimDate: day('claim_date').notNull(),
    dueDate: day('due_date').notNull(),
    state: text('state').notNull().default('open').$type<'open' | 'paid'>(),
    remindersSent: integer('reminders_sent').notNull().default(0),
    lastReminderDate: day('last_reminder_date'),
    paidAt: instant('paid_at'),
    operatorId: uuid('operator_id'),
    createdAt: createdAt(),
  },
  (t) => [
    index('issuer_debt_claims_issuer_idx').on(t.issuerId, t.createdAt, t.id),
    index('issuer_debt_claims_open_idx').on(t.dueDate).where(sql`${t.state} = 'open'`),
  ],
);

/** One posting a debt claim took: a charge back, or a payout, payment or plan payout set off against it. */
export const issuerDebtClaimRows = pgTable(
  'issuer_debt_claim_rows',
  {
    id: uuidKey(),
    claimId: uuid('claim_id')
      .notNull()
      .references(() => issuerDebtClaims.id),
    postingId: int64('posting_id').notNull().unique(),
    invoiceId: uuid('invoice_id').references(() => invoices.id),
    planId: uuid('plan_id').references((): AnyPgColumn => installmentPlans.id),
    kind: text('kind').notNull().$type<'payout' | 'payment' | 'chargeBack' | 'planPayout' | 'deduction'>(),
    /** A `deduction` row's deduction (a payment row), whose payer's reference the statement shows. */
    paymentId: uuid('payment_id'),
    postedAt: instant('posted_at').notNull(),
    position: integer('position').notNull(),
    grossMinor: int64('gross_minor').notNull(),
    feeMinor: int64('fee_minor').notNull(),
    netMinor: int64('net_minor').notNull(),
  },
  (t) => [index('issuer_debt_claim_rows_claim_idx').on(t.claimId, t.position)],
);

/**
 * The PDF a sent invoice went out as (issue #11, migration 0022): stored in the send's transaction,
 * returned byte for byte by every later download. `kind` is `generated` (our drawing) or `uploaded`
 * (the customer's own PDF with our payment slip page after it); `language` is the document's.
 */
export const invoiceDocuments = pgTable(
  'invoice_documents',
  {
    invoiceId: uuid('invoice_id')
      .primaryKey()
      .references(() => invoices.id, { onDelete: 'cascade' }),
    issuerId: issuerRef(),
    kind: text('kind').notNull().$type<'generated' | 'uploaded'>(),
    language: text('language').notNull(),
    sha256: text('sha256').notNull(),
    size: integer('size').notNull(),
    data: bytea('data').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('invoice_documents_issuer_idx').on(t.issuerId)],
);

/**
 * An attempt to verify the issuer's bank account with the open-banking provider (issue #13, migration
 * 0024). The state given to the provider is kept as its SHA-256 only, bound to the user who started
 * it; `status` leaves 'started' once, by the callback or the webhook, whichever comes first.
 */
export const bankVerifications = pgTable(
  'bank_verifications',
  {
    id: uuidKey(),
    issuerId: issuerRef(),
    userId: userRef('user_id'),
    stateHash: text('state_hash').notNull(),
    provider: text('provider').notNull(),
    providerSessionId: text('provider_session_id').notNull(),
    bankId: text('bank_id').notNull(),
    bankName: text('bank_name').notNull(),
    /** 'confirming': verified, but the account differs from the current one and awaits two-factor. */
    status: text('status')
      .notNull()
      .default('started')
      .$type<'started' | 'confirming' | 'verified' | 'failed'>(),
    reason: text('reason'),
    completedBy: text('completed_by').$type<'callback' | 'webhook'>(),
    reportId: text('report_id'),
    /** The provider's report as it came, for audit (domain note §3); never logged. */
    report: jsonb('report'),
    createdAt: createdAt(),
    expiresAt: instant('expires_at').notNull(),
    completedAt: instant('completed_at'),
  },
  (t) => [
    uniqueIndex('bank_verifications_state_idx').on(t.stateHash),
    uniqueIndex('bank_verifications_session_idx').on(t.provider, t.providerSessionId),
    index('bank_verifications_issuer_idx').on(t.issuerId, t.createdAt),
  ],
);

/**
 * The accounts a verification proved to be the issuer's (issue #13). The current one is confirmed and
 * has no `replacedAt` (at most one per issuer); payouts and settlements pay to it. One that would
 * replace another waits unconfirmed (`confirmedAt` null) for its user's two-factor code.
 */
export const verifiedBankAccounts = pgTable(
  'verified_bank_accounts',
  {
    id: uuidKey(),
    issuerId: issuerRef(),
    verificationId: uuid('verification_id')
      .notNull()
      .references(() => bankVerifications.id),
    kind: text('kind').notNull().$type<'se-bban' | 'bankgiro' | 'iban'>(),
    clearingNumber: text('clearing_number'),
    accountNumber: text('account_number'),
    bankgiro: text('bankgiro'),
    iban: text('iban'),
    bic: text('bic'),
    currency: text('currency'),
    holderName: text('holder_name').notNull(),
    bankName: text('bank_name').notNull(),
    masked: text('masked').notNull(),
    provider: text('provider').notNull(),
    reportId: text('report_id').notNull(),
    verifiedByUserId: userRef('verified_by_user_id'),
    verifiedAt: instant('verified_at').notNull(),
    confirmedAt: instant('confirmed_at'),
    replacedAt: instant('replaced_at'),
  },
  (t) => [
    uniqueIndex('verified_bank_accounts_current_idx')
      .on(t.issuerId)
      .where(sql`${t.replacedAt} is null and ${t.confirmedAt} is not null`),
  ],
);

/**
 * The issuer's Fortnox connection (issue #13, migration 0025): the tokens sealed with AES-256-GCM
 * (modules/fortnox), the connected company, and whether the tokens still work (`revoked` after a
 * disconnect, or when Fortnox refused the refresh token).
 */
export const fortnoxConnections = pgTable(
  'fortnox_connections',
  {
    id: uuidKey(),
    issuerId: issuerRef(),
    status: text('status').notNull().$type<'active' | 'revoked'>(),
    /** Why it is revoked: `disconnected` (by the customer here) or `refused` (by Fortnox). */
    reason: text('reason').$type<'disconnected' | 'refused'>(),
    companyName: text('company_name').notNull(),
    companyOrgNo: text('company_org_no').notNull(),
    scope: text('scope').notNull(),
    accessTokenSealed: text('access_token_sealed'),
    refreshTokenSealed: text('refresh_token_sealed'),
    accessExpiresAt: instant('access_expires_at'),
    connectedBy: userRef('connected_by'),
    connectedAt: instant('connected_at').notNull(),
    refreshedAt: instant('refreshed_at'),
    endedAt: instant('ended_at'),
  },
  (t) => [uniqueIndex('fortnox_connections_issuer_idx').on(t.issuerId)],
);

/** An authorization started at Fortnox: the state as its SHA-256, bound to the user, used once. */
export const fortnoxAuthorizations = pgTable(
  'fortnox_authorizations',
  {
    id: uuidKey(),
    issuerId: issuerRef(),
    userId: userRef('user_id'),
    stateHash: text('state_hash').notNull(),
    createdAt: instant('created_at').notNull(),
    expiresAt: instant('expires_at').notNull(),
    usedAt: instant('used_at'),
  },
  (t) => [uniqueIndex('fortnox_authorizations_state_idx').on(t.stateHash)],
);

/** A Fortnox invoice taken over as one of ours: each (company, document number) once. */
export const fortnoxInvoices = pgTable(
  'fortnox_invoices',
  {
    id: uuidKey(),
    issuerId: issuerRef(),
    companyOrgNo: text('company_org_no').notNull(),
    documentNumber: text('document_number').notNull(),
    invoiceId: invoiceRef('invoice_id', 'cascade'),
    customerNumber: text('customer_number').notNull(),
    createdBy: uuid('created_by').references(() => users.id),
    createdAt: instant('created_at').notNull(),
  },
  (t) => [
    uniqueIndex('fortnox_invoices_document_idx').on(t.companyOrgNo, t.documentNumber),
    uniqueIndex('fortnox_invoices_invoice_idx').on(t.invoiceId),
    index('fortnox_invoices_issuer_idx').on(t.issuerId, t.documentNumber),
  ],
);

/**
 * A payment we received for a Fortnox invoice, to be registered in Fortnox for an issuer with
 * limited_fortnox_bookkeeping: one row per payment, `pending` until Fortnox has it (exactly once).
 */
export const fortnoxPaymentOutbox = pgTable(
  'fortnox_payment_outbox',
  {
    id: uuidKey(),
    issuerId: issuerRef(),
    paymentId: uuid('payment_id').notNull(),
    invoiceId: invoiceRef('invoice_id', 'cascade'),
    documentNumber: text('document_number').notNull(),
    amountMinor: int64('amount_minor').notNull(),
    currency: currency(),
    paymentDate: day('payment_date').notNull(),
    status: text('status').notNull().default('pending').$type<'pending' | 'done'>(),
    attempts: integer('attempts').notNull().default(0),
    /** A try holds the row until then; another process leaves it alone meanwhile. */
    claimedUntil: instant('claimed_until'),
    lastError: text('last_error'),
    fortnoxPaymentNumber: text('fortnox_payment_number'),
    createdAt: instant('created_at').notNull(),
    doneAt: instant('done_at'),
  },
  (t) => [
    uniqueIndex('fortnox_payment_outbox_payment_idx').on(t.paymentId),
    index('fortnox_payment_outbox_pending_idx')
      .on(t.issuerId, t.createdAt)
      .where(sql`${t.status} = 'pending'`),
  ],
);

/**
 * An installment plan (contract financing) of an issuer to one of its recipients, the buyer (migration
 * 0027, docs/INSTALLMENTS.md). States 1-10 of spec §4 (`PLAN_STATE` in the contracts).
 */
export const installmentPlans = pgTable(
  'installment_plans',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    issuerId: uuid('issuer_id')
      .notNull()
      .references(() => issuers.id),
    recipientId: uuid('recipient_id')
      .notNull()
      .references(() => recipients.id),
    loanNumber: text('loan_number').notNull(),
    state: integer('state').notNull(),
    description: text('description').notNull(),
    currency: char('currency', { length: 3 }).notNull(),
    financedMinor: bigint('financed_minor', { mode: 'number' }).notNull(),
    initialFeeMinor: bigint('initial_fee_minor', { mode: 'number' }).notNull().default(0),
    monthlyFeeMinor: bigint('monthly_fee_minor', { mode: 'number' }).notNull().default(0),
    administrationFeeMinor: bigint('administration_fee_minor', { mode: 'number' }).notNull().default(0),
    totalMinor: bigint('total_minor', { mode: 'number' }).notNull(),
    noOfInstallments: integer('no_of_installments').notNull(),
    startDate: date('start_date', { mode: 'string' }).notNull(),
    endDate: date('end_date', { mode: 'string' }).notNull(),
    replacesPlanId: uuid('replaces_plan_id').references((): AnyPgColumn => installmentPlans.id),
    signingDocumentId: text('signing_document_id'),
    signedFileKey: text('signed_file_key'),
    /** The invoice of the whole remaining principal when the plan was recalled (state 5). */
    recallInvoiceId: uuid('recall_invoice_id')
      .unique()
      .references(() => invoices.id),
    createdBy: uuid('created_by'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('installment_plans_issuer_loan_idx').on(t.issuerId, t.loanNumber),
    index('installment_plans_issuer_created_idx').on(t.issuerId, t.createdAt, t.id),
    index('installment_plans_issuer_state_idx').on(t.issuerId, t.state),
    uniqueIndex('installment_plans_signing_idx')
      .on(t.signingDocumentId)
      .where(sql`${t.signingDocumentId} is not null`),
  ],
);

/** A plan's schedule: one row per installment, linked to its invoice once the daily job issued it. */
export const installmentPlanRows = pgTable(
  'installment_plan_rows',
  {
    planId: uuid('plan_id')
      .notNull()
      .references(() => installmentPlans.id, { onDelete: 'cascade' }),
    number: integer('number').notNull(),
    dueDate: date('due_date', { mode: 'string' }).notNull(),
    principalMinor: bigint('principal_minor', { mode: 'number' }).notNull(),
    initialFeeMinor: bigint('initial_fee_minor', { mode: 'number' }).notNull().default(0),
    monthlyFeeMinor: bigint('monthly_fee_minor', { mode: 'number' }).notNull().default(0),
    administrationFeeMinor: bigint('administration_fee_minor', { mode: 'number' }).notNull().default(0),
    /** The three fees together. */
    feeMinor: bigint('fee_minor', { mode: 'number' }).notNull(),
    amountMinor: bigint('amount_minor', { mode: 'number' }).notNull(),
    invoiceId: uuid('invoice_id')
      .unique()
      .references(() => invoices.id),
  },
  (t) => [primaryKey({ columns: [t.planId, t.number] })],
);

/** Who signs a plan (signees) and who guarantees it (securities). */
export const installmentPlanParties = pgTable(
  'installment_plan_parties',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    planId: uuid('plan_id')
      .notNull()
      .references(() => installmentPlans.id, { onDelete: 'cascade' }),
    role: text('role').notNull().$type<'signee' | 'security'>(),
    position: integer('position').notNull(),
    name: text('name').notNull(),
    identityNumber: text('identity_number').notNull(),
    email: text('email').notNull().default(''),
    phone: text('phone').notNull().default(''),
    signingPartyId: text('signing_party_id'),
    signingLink: text('signing_link'),
    signedAt: timestamp('signed_at', { withTimezone: true }),
    rejectedAt: timestamp('rejected_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('installment_plan_parties_position_idx').on(t.planId, t.role, t.position)],
);

/** A plan's timeline: one row per transition or signing step, written with the change it records. */
export const installmentPlanEvents = pgTable(
  'installment_plan_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    planId: uuid('plan_id')
      .notNull()
      .references(() => installmentPlans.id, { onDelete: 'cascade' }),
    issuerId: uuid('issuer_id').notNull(),
    /** `PLAN_EVENT` of the contracts. */
    event: integer('event').notNull(),
    state: integer('state').notNull(),
    seq: bigserial('seq', { mode: 'number' }).notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    userId: uuid('user_id'),
    details: jsonb('details').$type<Record<string, string | number>>(),
  },
  (t) => [index('installment_plan_events_plan_idx').on(t.planId, t.seq)],
);
