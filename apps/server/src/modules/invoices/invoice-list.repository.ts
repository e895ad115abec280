import {
  INVOICE_EVENT,
  INVOICE_STATE,
  type ListInvoicesQuery,
  OVERDUE_BUCKET_DAYS,
  type OverdueBucket,
  UNPAID_INVOICE_STATES,
} from '@portal/contracts';
import { addDays } from '@portal/domain/calendar-date';
import {
  and,
  count,
  eq,
  gte,
  ilike,
  inArray,
  lt,
  lte,
  notInArray,
  or,
  type SQL,
  type SQLWrapper,
  sql,
  sum,
} from 'drizzle-orm';
import type { Db } from '../../db/client';
import { selectPreparedShape } from '../../db/prepared';
import { invoiceEvents, invoiceStateTotals, invoices, invoiceUnpaidDues, recipients } from '../../db/schema';
import { addMinor } from '../../lib/minor';
import { containsPattern } from '../../lib/sql-search';

/**
 * The invoice history's list (`GET limited/invoices`, docs/INVOICES.md "The list at scale"): one SQL
 * statement per page that answers the page's rows already as JSON (built by PostgreSQL, in the
 * contract's shape) and the totals per currency, so the server neither maps rows nor validates and
 * serialises them again. Pages are read by keyset: a page opened from the previous or next one's
 * cursor starts at that row in the index; a page opened by number in the second half of the list is
 * read from the other end, so the last page costs what the first does. Every value of the statement
 * is a placeholder (`P`), so its text is built once per shape of query (db/prepared.ts).
 */

/** A value of the statement: itself, or a placeholder filled when the prepared statement runs. */
type Value = string | SQLWrapper;

/** The placeholders of the list's statements; `listInvoices` gives their values. */
const P = {
  issuerId: sql.placeholder('issuerId'),
  today: sql.placeholder('today'),
  from: sql.placeholder('from'),
  to: sql.placeholder('to'),
  recipientID: sql.placeholder('recipientID'),
  searchPrefix: sql.placeholder('searchPrefix'),
  searchContains: sql.placeholder('searchContains'),
  dueFrom: sql.placeholder('dueFrom'),
  dueTo: sql.placeholder('dueTo'),
  cursorKey: sql.placeholder('cursorKey'),
  cursorId: sql.placeholder('cursorId'),
  limit: sql.placeholder('limit'),
  offset: sql.placeholder('offset'),
};

/** The issuer's recipient name of an invoice, looked up for the page's rows only (a scalar subquery). */
const recipientNameSql = sql`(select ${recipients.name} from ${recipients} where ${recipients.id} = ${invoices.recipientId})`;

/**
 * The reason of the back office's rejection of a rejected invoice (the text of its latest rejected
 * event), else null: a scalar subquery, looked up for the answer's rows only. Its columns are
 * written out with their tables: drizzle leaves them unqualified in a select of one table.
 */
export const rejectionReason = sql<string | null>`case when "invoices"."decision" = 'rejected' then (
  select e.details ->> 'reason' from ${invoiceEvents} e
  where e.invoice_id = "invoices"."id" and e.event = ${sql.raw(String(INVOICE_EVENT.rejected))}
  order by e.at desc, e.seq desc limit 1) end`;

/** Each sort of the list: its expression and the type its cursor value is read back as. */
const SORTS = {
  invoiceDate: { expr: sql`${invoices.invoiceDate}`, type: 'date' },
  dueDate: { expr: sql`${invoices.dueDate}`, type: 'date' },
  invoiceNumber: { expr: sql`${invoices.invoiceNumber}`, type: 'text' },
  // The list has no join: the name is looked up per invoice, as its select does.
  recipientName: { expr: recipientNameSql, type: 'text' },
  grossMinor: { expr: sql`${invoices.grossMinor}`, type: 'bigint' },
  created: { expr: sql`${invoices.createdAt}`, type: 'timestamptz' },
} as const satisfies Record<ListInvoicesQuery['sort'], { expr: SQL; type: string }>;

type SortType = (typeof SORTS)[keyof typeof SORTS]['type'];

/** A LIKE pattern for "starts with `text`", case-folded, with LIKE's own characters escaped. */
function prefixPattern(text: string): string {
  return `${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * The issuer's recipients whose name matches `contains` (a `containsPattern`): a small table, read
 * through its issuer index.
 */
function recipientsNamed(db: Db, issuerId: Value, contains: Value) {
  return db
    .select({ id: recipients.id })
    .from(recipients)
    .where(and(eq(recipients.issuerId, issuerId), ilike(recipients.name, contains)));
}

/** An invoice number or OCR reference that matches `prefix` (a `prefixPattern`; index range scans). */
function numberOrOcrStartsWith(prefix: Value): SQL | undefined {
  return or(sql`lower(${invoices.invoiceNumber}) like ${prefix}`, sql`${invoices.ocr} like ${prefix}`);
}

/**
 * The search of the invoice lists: an invoice number or OCR reference that starts with the text, or a
 * recipient whose name contains it (found first among the issuer's own recipients, then matched by id).
 */
export function searchWhere(db: Db, issuerId: string, text: string): SQL | undefined {
  return searchPatternsWhere(prefixPattern(text), recipientsNamed(db, issuerId, containsPattern(text)));
}

/** `searchWhere` by its prefix pattern (may be a placeholder) and the named recipients' ids (a select). */
function searchPatternsWhere(prefix: Value, named: SQLWrapper): SQL | undefined {
  return or(numberOrOcrStartsWith(prefix), inArray(invoices.recipientId, named));
}

/**
 * The list's statements name the searched recipients once, in `with search_recipients` (`withSearch`),
 * and read them here wherever they are needed (the page, the kept totals, the others' totals): planned
 * once instead of three times (the searched list's planning 0.55 → 0.41 ms).
 */
const SEARCH_RECIPIENTS = sql`(select id from search_recipients)`;

/** A list statement, with the searched recipients named first when the query searches. */
function withSearch(db: Db, q: ListInvoicesQuery, statement: SQL): SQL {
  return q.search
    ? sql`with search_recipients as ${recipientsNamed(db, P.issuerId, P.searchContains)} ${statement}`
    : statement;
}

/**
 * The states no list shows (spec §4): 7 temporary, an import preview's draft and never a real
 * invoice, and 11 deleted. `all` is every other state, and every filter a part of it.
 */
const UNLISTED_STATES = [INVOICE_STATE.temporary, INVOICE_STATE.deleted];

/** The filters of spec §4 that are a set of states (docs/INVOICES.md gives the meaning of each). */
const FILTER_STATES: Readonly<Record<string, readonly number[]>> = {
  active: UNPAID_INVOICE_STATES,
  paid: [INVOICE_STATE.paid],
  partPaid: [INVOICE_STATE.partPaid],
  recharged: [INVOICE_STATE.chargedBack],
  pendingApproval: [INVOICE_STATE.awaitingCreditDecision],
  queued: [INVOICE_STATE.creating],
};

/** `state = $1` for one state, `state in (...)` for several: the statement text stays one per filter. */
function stateIn(column: typeof invoices.state | typeof invoiceStateTotals.state, states: readonly number[]) {
  return states.length === 1 ? eq(column, states[0] as number) : inArray(column, [...states]);
}

/** The same filters over the kept totals (everything but `overdue`, which depends on today). */
function totalsWhere(filter: string): SQL | undefined {
  const t = invoiceStateTotals;
  const states = FILTER_STATES[filter];
  if (states) return stateIn(t.state, states);
  // A deleted invoice keeps its decision (history) but is listed by no filter: see filterWhere.
  if (filter === 'rejected') return and(eq(t.rejected, true), notInArray(t.state, UNLISTED_STATES));
  return notInArray(t.state, UNLISTED_STATES);
}

/** The SQL of a list filter of spec §4 (docs/INVOICES.md gives the meaning of each). */
export function filterWhere(filter: string, today: Value): SQL | undefined {
  const states = FILTER_STATES[filter];
  if (states) return stateIn(invoices.state, states);
  if (filter === 'overdue')
    return and(stateIn(invoices.state, UNPAID_INVOICE_STATES), lt(invoices.dueDate, today));
  // Deleting a rejected invoice keeps its decision (it is history, shown on the detail page), so the
  // deleted ones are left out here as in every filter: each lists a part of "all".
  if (filter === 'rejected')
    return and(eq(invoices.decision, 'rejected'), notInArray(invoices.state, UNLISTED_STATES));
  return notInArray(invoices.state, UNLISTED_STATES);
}

/** The due dates of an overdue bucket as of `today`: `today - max` .. `today - min` (no lower end for 30+). */
function bucketDueRange(bucket: OverdueBucket, today: string): { from: string | null; to: string } {
  const { min, max } = OVERDUE_BUCKET_DAYS[bucket];
  return { from: max === null ? null : addDays(today, -max), to: addDays(today, -min) };
}

/**
 * The unpaid invoices (states 2, 3) of a bucket of days past due: due in `P.dueFrom` ..
 * `P.dueTo` (`bucketDueRange`; no lower end for 30+). The dashboard's buckets count the same invoices
 * (modules/dashboard/dashboard.repository.ts).
 */
function bucketWhere(bucket: OverdueBucket): SQL | undefined {
  return and(
    inArray(invoices.state, [...UNPAID_INVOICE_STATES]),
    lte(invoices.dueDate, P.dueTo),
    OVERDUE_BUCKET_DAYS[bucket].max === null ? undefined : gte(invoices.dueDate, P.dueFrom),
  );
}

export interface CurrencyTotal {
  currency: string;
  grossMinor: number;
  count: number;
}

/**
 * A statement of rows (currency, gross as text, count) whose sum per currency is the count and gross
 * sum of everything a list query matches. Read from kept totals whenever they can answer:
 * - `invoice_state_totals` for every filter but `overdue` (it depends on today), with no date range
 *   and no bucket, with or without a recipient or a search. A search adds up, besides the kept totals
 *   of the recipients it names, only the invoices whose number or OCR reference matches and whose
 *   recipient it does not name; so both parts are small and never count an invoice twice.
 * - `invoice_unpaid_dues` (one row per due date) for an overdue bucket or the `overdue` filter of the
 *   unpaid invoices (filter all, active or overdue) with no date range, recipient or search.
 * Anything else adds up the matching invoices.
 */
function totalsSql(db: Db, q: ListInvoicesQuery, where: SQL | undefined): SQL {
  const addUp = (condition: SQL | undefined) =>
    db
      .select({ currency: invoices.currency, grossMinor: sql`${sum(invoices.grossMinor)}::text`, n: count() })
      .from(invoices)
      .where(condition)
      .groupBy(invoices.currency)
      .getSQL();
  const plain = !q.from && !q.to && !q.recipientID && !q.search;
  const unpaid = q.filter === 'all' || q.filter === 'active' || q.filter === 'overdue';
  if (plain && unpaid && (q.bucket || q.filter === 'overdue')) {
    // The due dates are `P.dueFrom` .. `P.dueTo` (`dueRange`): the bucket's, or up to yesterday.
    const d = invoiceUnpaidDues;
    const hasFrom = q.bucket !== undefined && OVERDUE_BUCKET_DAYS[q.bucket].max !== null;
    return db
      .select({
        currency: d.currency,
        grossMinor: sql`sum(${d.grossMinor})::text`,
        n: sql`sum(${d.invoiceCount})::int`,
      })
      .from(d)
      .where(
        and(
          eq(d.issuerId, P.issuerId),
          lte(d.dueDate, P.dueTo),
          hasFrom ? gte(d.dueDate, P.dueFrom) : undefined,
        ),
      )
      .groupBy(d.currency)
      .getSQL();
  }
  if (q.from || q.to || q.filter === 'overdue' || q.bucket) return addUp(where);

  const t = invoiceStateTotals;
  const named = q.search ? SEARCH_RECIPIENTS : undefined;
  const kept = db
    .select({
      currency: t.currency,
      grossMinor: sql`sum(${t.grossMinor})::text`,
      n: sql<number>`sum(${t.invoiceCount})::int`,
    })
    .from(t)
    .where(
      and(
        eq(t.issuerId, P.issuerId),
        totalsWhere(q.filter),
        q.recipientID ? eq(t.recipientId, P.recipientID) : undefined,
        named ? inArray(t.recipientId, named) : undefined,
      ),
    )
    .groupBy(t.currency)
    .getSQL();
  if (!q.search || !named) return kept;
  const others = addUp(
    and(
      eq(invoices.issuerId, P.issuerId),
      filterWhere(q.filter, P.today),
      q.recipientID ? eq(invoices.recipientId, P.recipientID) : undefined,
      numberOrOcrStartsWith(P.searchPrefix),
      notInArray(invoices.recipientId, named),
    ),
  );
  return sql`${kept} union all ${others}`;
}

/** The totals rows as one JSON text: [[currency, gross, count], …]. */
function totalsJsonSql(totals: SQL): SQL {
  return sql`(select coalesce(json_agg(json_build_array(t.currency, t.gross_minor, t.n)), '[]')::text
    from (${totals}) t (currency, gross_minor, n))`;
}

/** Adds per-currency parts together, drops empty currencies and orders by currency code. */
function merge(parts: [string, string | null, number][]): CurrencyTotal[] {
  const byCurrency = new Map<string, CurrencyTotal>();
  for (const [currency, grossMinor, n] of parts) {
    const total = byCurrency.get(currency) ?? { currency, grossMinor: 0, count: 0 };
    total.grossMinor = addMinor(total.grossMinor, grossMinor);
    total.count += Number(n);
    byCurrency.set(currency, total);
  }
  return [...byCurrency.values()]
    .filter((c) => c.count > 0)
    .sort((a, b) => (a.currency < b.currency ? -1 : a.currency > b.currency ? 1 : 0));
}

/** Where a page starts: a row of the list (sort value as PostgreSQL wrote it, id) and which side. */
interface Cursor {
  side: 'after' | 'before';
  key: string;
  id: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Whether `key` is a value PostgreSQL reads as `type` without an error (a cursor is the client's). */
function validKey(type: SortType, key: string): boolean {
  if (key.length > 300) return false;
  const date = (text: string) => {
    const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
    if (!m) return false;
    const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
    return (
      d.getUTCFullYear() === Number(m[1]) &&
      d.getUTCMonth() === Number(m[2]) - 1 &&
      d.getUTCDate() === Number(m[3])
    );
  };
  switch (type) {
    case 'date':
      return date(key);
    case 'bigint':
      return /^-?\d{1,18}$/.test(key);
    case 'timestamptz': {
      const m = /^(\d{4}-\d{2}-\d{2}) (\d{2}):(\d{2}):(\d{2})(\.\d{1,6})?[+-]\d{2}(:\d{2})?$/.exec(key);
      return !!m && date(m[1] as string) && Number(m[2]) < 24 && Number(m[3]) < 60 && Number(m[4]) < 60;
    }
    default:
      return true;
  }
}

/**
 * The cursor of a row: base64url of JSON naming the sort and order it belongs to, so a cursor of
 * another sort is not taken for this one.
 */
function encodeCursor(q: ListInvoicesQuery, side: Cursor['side'], key: string, id: string): string {
  return Buffer.from(JSON.stringify([q.sort, q.order, side === 'after' ? 'a' : 'b', key, id])).toString(
    'base64url',
  );
}

/** The cursor of the query, or null when there is none or it is not one of this sort (then `page` counts). */
function decodeCursor(q: ListInvoicesQuery): Cursor | null {
  if (!q.cursor) return null;
  try {
    const v = JSON.parse(Buffer.from(q.cursor, 'base64url').toString('utf8')) as unknown;
    if (!Array.isArray(v) || v.length !== 5) return null;
    const [sort, order, side, key, id] = v as unknown[];
    if (sort !== q.sort || order !== q.order || (side !== 'a' && side !== 'b')) return null;
    if (typeof key !== 'string' || typeof id !== 'string' || !UUID.test(id)) return null;
    if (!validKey(SORTS[q.sort].type, key)) return null;
    return { side: side === 'a' ? 'after' : 'before', key, id };
  } catch {
    return null;
  }
}

/** The unpaid states as SQL literals: a constant of the statement's text, so every list keeps one text per shape. */
const UNPAID_STATES_SQL = sql.raw(UNPAID_INVOICE_STATES.join(', '));

/** One invoice of the list as JSON in the contract's field order (`InvoiceSummary`). */
function itemJsonSql(today: Value): SQL {
  return sql`json_build_object(
    'invoiceID', ${invoices.id}, 'invoiceNumber', ${invoices.invoiceNumber},
    'recipientID', ${invoices.recipientId}, 'recipientName', ${recipientNameSql},
    'service', ${invoices.service}, 'state', ${invoices.state}, 'currency', ${invoices.currency},
    'invoiceDate', ${invoices.invoiceDate}, 'dueDate', ${invoices.dueDate},
    'created', to_char(${invoices.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'ocr', ${invoices.ocr}, 'grossMinor', ${invoices.grossMinor}, 'toPayMinor', ${invoices.toPayMinor},
    'remainingMinor', ${invoices.remainingMinor},
    'overdue', (${invoices.state} in (${UNPAID_STATES_SQL}) and ${invoices.dueDate} < ${today}::date),
    'decision', ${invoices.decision}, 'rejectionReason', ${rejectionReason})`;
}

/** Rows a page by number skips from the start without asking the total first (see listInvoices). */
const FORWARD_OFFSET_MAX = 1_000;

export interface InvoicePage {
  /** The page's invoices as JSON text (an array of `InvoiceSummary`). */
  itemsJson: string;
  total: number;
  totals: CurrencyTotal[];
  nextCursor: string | null;
  prevCursor: string | null;
}

/** The due dates that `P.dueFrom` .. `P.dueTo` stand for: an overdue bucket's, or any before today. */
function dueRange(q: ListInvoicesQuery, today: string): { from: string | null; to: string } {
  return q.bucket ? bucketDueRange(q.bucket, today) : { from: null, to: addDays(today, -1) };
}

/** The conditions of a list query, with its values as placeholders (`P`). */
function listWhere(q: ListInvoicesQuery): SQL | undefined {
  return and(
    eq(invoices.issuerId, P.issuerId),
    filterWhere(q.filter, P.today),
    q.from ? gte(invoices.invoiceDate, P.from) : undefined,
    q.to ? lte(invoices.invoiceDate, P.to) : undefined,
    q.recipientID ? eq(invoices.recipientId, P.recipientID) : undefined,
    q.search ? searchPatternsWhere(P.searchPrefix, SEARCH_RECIPIENTS) : undefined,
    q.bucket ? bucketWhere(q.bucket) : undefined,
  );
}

/**
 * The page's invoices in the order of their recipients' names, then their ids. The name is the
 * recipient's, so no index of invoices holds that order: sorted as one list, a big issuer's page read
 * and sorted every invoice with its recipient's name looked up (98,000 rows, 180-810 ms). Instead the
 * issuer's recipients are walked, and of each only its first `limit + offset` matching invoices by id
 * can be on the page (index `(recipient_id, issuer_id, id)`, migration 0035): the page is the first of
 * those in (name, id) order, the same rows in the same order as the one list's, ties between
 * recipients of one name included. An invoice's recipient is always its issuer's own (the routes and
 * imports check it); the invoices are still read for the issuer only.
 */
function byRecipientName(q: ListInvoicesQuery, direction: SQL, keyset: SQL | undefined): SQL {
  return sql`select ${invoices}.* from ${recipients} r
        cross join lateral (
          select ${invoices}.* from ${invoices}
          where ${and(sql`${invoices.recipientId} = r.id`, listWhere(q), keyset)}
          order by ${invoices.id} ${direction}
          limit ${P.limit}::bigint + ${P.offset}::bigint
        ) ${invoices}
        where r.issuer_id = ${P.issuerId}
        order by r.name ${direction}, ${invoices.id} ${direction}
        limit ${P.limit} offset ${P.offset}`;
}

/** A list query's page, its total and its totals per currency (see the top of this file). */
export async function listInvoices(
  db: Db,
  issuerId: string,
  q: ListInvoicesQuery,
  today: string,
): Promise<InvoicePage> {
  const sort = SORTS[q.sort];
  const cursor = decodeCursor(q);
  const dues = dueRange(q, today);
  const values: Record<string, unknown> = {
    issuerId,
    today,
    from: q.from ?? null,
    to: q.to ?? null,
    recipientID: q.recipientID ?? null,
    searchPrefix: q.search ? prefixPattern(q.search) : null,
    searchContains: q.search ? containsPattern(q.search) : null,
    dueFrom: dues.from,
    dueTo: dues.to,
    cursorKey: cursor?.key ?? null,
    cursorId: cursor?.id ?? null,
  };
  // Everything of the query that changes the statement's text; its values are the placeholders'.
  const shape = [
    q.filter,
    !!q.from,
    !!q.to,
    !!q.recipientID,
    !!q.search,
    q.bucket ?? '',
    q.sort,
    q.order,
  ].join();
  const totals = () => totalsSql(db, q, listWhere(q));

  // A page by number past the middle of the list is read backwards from its end: its offset from
  // that end is what the scan skips. That needs the total first (the kept totals: one small read),
  // asked only when skipping from the start could cost more than that round trip.
  let known: CurrencyTotal[] | null = null;
  let offset = (q.page - 1) * q.pageSize;
  let limit = q.pageSize;
  let backwards = cursor?.side === 'before';
  if (cursor) offset = 0;
  else if (offset > FORWARD_OFFSET_MAX) {
    known = merge(
      (
        await selectPreparedShape<{ t: string }>(
          db,
          `invoice totals ${shape}`,
          () => withSearch(db, q, sql`select ${totalsJsonSql(totals())} as t`),
          values,
        )
      ).flatMap((r) => JSON.parse(r.t)),
    );
    const total = known.reduce((n, t) => n + t.count, 0);
    if (offset >= total) limit = 0;
    else if (offset > total / 2) {
      backwards = true;
      limit = Math.min(q.pageSize, total - offset);
      offset = total - offset - limit;
    }
  }

  // The list's order, or its reverse for a page read backwards; `id` breaks ties the same way. The
  // page's rows are picked first (the inner select, named `invoices` again for the item's columns)
  // and only those 50 are made into JSON: PostgreSQL computes a select's items for the rows an
  // OFFSET skips too, so page 3 built 150 items, and a page near the 1,000-row offset 1,000.
  const descending = (q.order === 'desc') !== backwards;
  const statement = () => {
    const direction = descending ? sql`desc` : sql`asc`;
    /** The rows after (or before) the cursor's row by `key` and id, in the page's direction. */
    const keysetOn = (key: SQL, type: string) =>
      cursor
        ? sql`(${key}, ${invoices.id}) ${descending ? sql`<` : sql`>`} (${P.cursorKey}::${sql.raw(type)}, ${P.cursorId}::uuid)`
        : undefined;
    const listOrder = q.order === 'desc' ? sql`desc` : sql`asc`;
    const pageRows =
      q.sort === 'recipientName'
        ? byRecipientName(q, direction, keysetOn(sql`r.name`, 'text'))
        : sql`select ${invoices}.* from ${invoices}
        where ${and(listWhere(q), keysetOn(sort.expr, sort.type))}
        order by ${sort.expr} ${direction}, ${invoices.id} ${direction}
        limit ${P.limit} offset ${P.offset}`;
    return withSearch(
      db,
      q,
      sql`
    select coalesce(json_agg(p.item order by p.sort_value ${listOrder}, p.id ${listOrder}), '[]')::text as items,
           (array_agg(p.sort_key order by p.sort_value ${listOrder}, p.id ${listOrder}))[1] as first_key,
           (array_agg(p.id::text order by p.sort_value ${listOrder}, p.id ${listOrder}))[1] as first_id,
           (array_agg(p.sort_key order by p.sort_value ${listOrder}, p.id ${listOrder}))[count(*)::int] as last_key,
           (array_agg(p.id::text order by p.sort_value ${listOrder}, p.id ${listOrder}))[count(*)::int] as last_id,
           count(*)::int as n,
           ${known ? sql`null::text` : totalsJsonSql(totals())} as totals
    from (
      select ${invoices.id} as id, ${sort.expr} as sort_value, (${sort.expr})::text as sort_key,
             ${itemJsonSql(P.today)} as item
      from (${pageRows}) ${invoices}
    ) p`,
    );
  };
  const [row] = await selectPreparedShape<{
    items: string;
    first_key: string | null;
    first_id: string | null;
    last_key: string | null;
    last_id: string | null;
    n: number;
    totals: string | null;
  }>(db, `invoice page ${shape},${cursor ? 'cursor' : ''},${descending},${known !== null}`, statement, {
    ...values,
    limit,
    offset,
  });
  if (!row) throw new Error('the list statement answered no row');
  const currencyTotals = known ?? merge(JSON.parse(row.totals ?? '[]'));
  const total = currencyTotals.reduce((n, t) => n + t.count, 0);
  // Cursors of the page's first and last rows: the pages before and after it, read by keyset.
  const lastRow = (q.page - 1) * q.pageSize + row.n;
  return {
    itemsJson: row.items,
    total,
    totals: currencyTotals,
    nextCursor:
      row.n > 0 && lastRow < total && row.last_key !== null && row.last_id !== null
        ? encodeCursor(q, 'after', row.last_key, row.last_id)
        : null,
    prevCursor:
      row.n > 0 && q.page > 1 && row.first_key !== null && row.first_id !== null
        ? encodeCursor(q, 'before', row.first_key, row.first_id)
        : null,
  };
}
