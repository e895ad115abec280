import { buildPath, errorResponseSchema, FILE_MAX_BYTES, type OperationId, ROUTES } from '@portal/contracts';
import { eq } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { invoiceFiles } from '../src/db/schema';
import { type OpenApiDoc, type OpenApiOperation, operationsOf } from './support/openapi';
import { ROUTE_SAMPLES, SAMPLE_ID, VALID_INVOICE_BODY, VALID_RECIPIENT_BODY } from './support/route-samples';
import { bearer } from './support/test-app';
import { useLogins, useTestApp } from './support/use-test-app';

/**
 * Issue #10, "Bad input gets a 4xx with a code, never a 500": control characters in every string a
 * route takes, dates out of range on every route that takes one, the codes of a too-large body, an
 * unknown issuer and an overflowing sum, and the names of uploaded files.
 */

const t = useTestApp({ startTimeoutMs: 300_000 });
const user = useLogins(t, { customer: 'demo' });
let doc: OpenApiDoc;
let operator: string;
beforeAll(async () => {
  doc = (await t.app.inject({ url: '/api/openapi.json' })).json() as OpenApiDoc;
  operator = await t.loginOperator();
});

function tokenOf(op: OperationId): string | undefined {
  const auth = ROUTES[op].auth;
  return auth === 'session' ? user.customer : auth === 'operator' ? operator : undefined;
}

function queryOf(op: OperationId): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(ROUTE_SAMPLES[op].query ?? ''));
}

/** The sample call of `op` with its query, path and body parts replaced. */
function call(
  op: OperationId,
  parts: { query?: Record<string, string>; params?: Record<string, string>; payload?: unknown },
): InjectOptions {
  const def = ROUTES[op];
  const sample = ROUTE_SAMPLES[op];
  const query = new URLSearchParams(parts.query ?? queryOf(op)).toString();
  const path = buildPath(def.path, parts.params ?? sample.params);
  const token = tokenOf(op);
  const payload = 'payload' in parts ? parts.payload : sample.payload;
  return {
    method: def.method,
    url: query ? `${path}?${query}` : path,
    ...(payload !== undefined ? { payload: payload as Record<string, unknown> } : {}),
    ...(token ? { headers: bearer(token) } : {}),
  };
}

/** Every string leaf of a JSON value, as a path of keys and indexes. */
function stringPaths(value: unknown, at: (string | number)[] = []): (string | number)[][] {
  if (typeof value === 'string') return [at];
  if (Array.isArray(value)) return value.flatMap((v, i) => stringPaths(v, [...at, i]));
  if (value && typeof value === 'object')
    return Object.entries(value).flatMap(([k, v]) => stringPaths(v, [...at, k]));
  return [];
}

function setAt(value: unknown, path: (string | number)[], leaf: unknown): unknown {
  if (path.length === 0) return leaf;
  const [head, ...rest] = path as [string | number, ...(string | number)[]];
  const copy = (Array.isArray(value) ? [...value] : { ...(value as object) }) as Record<string, unknown>;
  copy[head] = setAt(copy[head], rest, leaf);
  return copy;
}

/** The string fields of an operation's JSON body that the OpenAPI document names at the top level. */
function bodyStringFields(operation: OpenApiOperation): string[] {
  const schema = operation.requestBody?.content?.['application/json']?.schema;
  return Object.entries(schema?.properties ?? {})
    .filter(([, s]) => s.type === 'string' || s.anyOf?.some((a) => a.type === 'string'))
    .map(([name]) => name);
}

const NUL = 'a\u0000b';

describe('a control character in any string the API takes', () => {
  /** One case per string slot of every route: query and path parameters, body fields and their leaves. */
  function cases(): { name: string; op: OperationId; request: () => InjectOptions }[] {
    const out: { name: string; op: OperationId; request: () => InjectOptions }[] = [];
    for (const { op, operation } of operationsOf(doc)) {
      for (const p of operation.parameters ?? []) {
        if (p.in === 'query')
          out.push({
            name: `${op} ?${p.name}`,
            op,
            request: () => call(op, { query: { ...queryOf(op), [p.name]: NUL } }),
          });
        if (p.in === 'path')
          out.push({
            name: `${op} :${p.name}`,
            op,
            request: () => call(op, { params: { ...ROUTE_SAMPLES[op].params, [p.name]: NUL } }),
          });
      }
      const payload = ROUTE_SAMPLES[op].payload;
      if (!operation.requestBody?.content?.['application/json']) continue;
      const paths = stringPaths(payload ?? {});
      for (const field of bodyStringFields(operation))
        if (!paths.some((p) => p.length === 1 && p[0] === field)) paths.push([field]);
      for (const path of paths)
        out.push({
          name: `${op} body.${path.join('.')}`,
          op,
          request: () => call(op, { payload: setAt(payload ?? {}, path, NUL) }),
        });
    }
    return out;
  }

  it('is refused with 400 and a code on every route and field', async () => {
    const all = cases();
    expect(all.length).toBeGreaterThan(100);
    const wrong: string[] = [];
    for (const c of all) {
      const res = await t.app.inject(c.request());
      const body = res.json() as { code?: string };
      if (res.statusCode !== 400 || !errorResponseSchema.safeParse(body).success)
        wrong.push(`${c.name}: ${res.statusCode} ${res.body.slice(0, 200)}`);
    }
    expect(wrong).toEqual([]);
  });

  it.each([
    ['NUL', '\u0000'],
    ['escape', '\u001b'],
    ['C1', '\u0085'],
    ['lone surrogate', '\ud800'],
  ])('%s in a message, a recipient, an article, a row, the issuer and the sign-in name', async (_, bad) => {
    const requests: InjectOptions[] = [
      call('createMessage', { payload: { title: 'Fråga', message: `Hej${bad}` } }),
      call('createRecipient', { payload: { ...VALID_RECIPIENT_BODY, name: `Kund${bad}` } }),
      call('createArticle', { payload: { ...ROUTE_SAMPLES.createArticle.payload, name: `Tim${bad}me` } }),
      call('createInvoice', {
        payload: {
          ...VALID_INVOICE_BODY,
          recipientID: SAMPLE_ID,
          rows: [{ ...VALID_INVOICE_BODY.rows[0], name: bad }],
        },
      }),
      call('saveIssuerInfo', { payload: { ...ROUTE_SAMPLES.saveIssuerInfo.payload, name: `AB${bad}` } }),
      call('login', { payload: { username: `demo${bad}`, password: 'x' } }),
      call('backofficeLogin', { payload: { username: `operator${bad}`, password: 'x' } }),
    ];
    for (const request of requests) {
      const res = await t.app.inject(request);
      expect(res.statusCode, `${request.url} ${res.body}`).toBe(400);
      expect(res.json()).toMatchObject({ issues: [{ code: 'validation.control_characters' }] });
    }
  });

  it('allows tab and newline where text may run over lines, and nowhere else', async () => {
    const message = await t.app.inject(
      call('createMessage', { payload: { title: 'Fråga', message: 'Rad ett\r\n\tRad två' } }),
    );
    expect(message.statusCode, message.body).toBe(200);
    const title = await t.app.inject(
      call('createMessage', { payload: { title: 'Två\nrader', message: 'x' } }),
    );
    expect(title.statusCode).toBe(400);
  });
});

describe('a date out of range', () => {
  const FAR = ['0000-01-01', '1899-12-31', '2200-01-01', '9999-12-31', '2026-02-30', '+020260-01-01'];

  /** Every route's date parameters and body fields (format `date` in the OpenAPI document). */
  function dateSlots(): { op: OperationId; where: 'query' | 'body'; name: string }[] {
    const out: { op: OperationId; where: 'query' | 'body'; name: string }[] = [];
    for (const { op, operation } of operationsOf(doc)) {
      for (const p of operation.parameters ?? [])
        if (p.schema?.format === 'date') out.push({ op, where: 'query', name: p.name });
      const schema = operation.requestBody?.content?.['application/json']?.schema;
      for (const [name, s] of Object.entries(schema?.properties ?? {}))
        if (s.format === 'date' || s.anyOf?.some((a) => a.format === 'date'))
          out.push({ op, where: 'body', name });
    }
    return out;
  }

  it('is a date type in the OpenAPI document on every route the issue names', () => {
    const named = new Set(dateSlots().map((s) => `${s.op}.${s.name}`));
    for (const slot of [
      'createInvoice.invoiceDate',
      'createInvoice.dueDate',
      'updateInvoice.dueDate',
      'uploadInvoice.invoiceDate',
      'listInvoices.from',
      'listInvoices.to',
      'getPaymentsReport.from',
      'exportPaymentsReport.to',
      'getLedgerReport.date',
      'exportLedgerReport.date',
      'downloadActiveRegress.from',
      'downloadActiveRegress.to',
      'listTransferCosts.from',
      'runPayout.payoutDate',
      'runDailyJob.date',
    ])
      expect(named, slot).toContain(slot);
  });

  it.each(FAR)('%s is refused with 400 and a code everywhere', async (date) => {
    const wrong: string[] = [];
    for (const slot of dateSlots()) {
      const request =
        slot.where === 'query'
          ? call(slot.op, { query: { ...queryOf(slot.op), [slot.name]: date } })
          : call(slot.op, { payload: { ...ROUTE_SAMPLES[slot.op].payload, [slot.name]: date } });
      const res = await t.app.inject(request);
      const body = res.json() as { code?: string; issues?: { code: string }[] };
      if (res.statusCode !== 400 || !body.code || !body.issues?.some((i) => i.code === 'validation.date'))
        wrong.push(`${slot.op} ${slot.name}: ${res.statusCode} ${res.body.slice(0, 200)}`);
    }
    expect(wrong).toEqual([]);
  });

  it('answers the payments CSV export instead of closing the connection', async () => {
    const res = await t.app.inject(
      call('exportPaymentsReport', { query: { from: '0000-01-01', to: '2026-03-02', format: 'csv' } }),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ issues: [{ path: 'from', code: 'validation.date' }] });
  });

  it('still takes the first and last day of the range', async () => {
    const res = await t.app.inject(call('listInvoices', { query: { from: '1900-01-01', to: '2199-12-31' } }));
    expect(res.statusCode, res.body).toBe(200);
  });
});

describe('codes that say what is wrong', () => {
  it('a JSON body over the limit is request.too_large, a file over the limit files.too_large', async () => {
    const json = await t.app.inject({
      method: 'POST',
      url: '/api/limited/messages',
      headers: { ...bearer(user.customer), 'content-type': 'application/json' },
      payload: JSON.stringify({ title: 'x', message: 'y'.repeat(10 * 1024 * 1024) }),
    });
    expect(json.statusCode).toBe(413);
    expect(json.json()).toEqual({ code: 'request.too_large' });

    const file = await t.app.inject({
      method: 'POST',
      url: '/api/limited/files?role=attachment&filename=stor.pdf',
      headers: { ...bearer(user.customer), 'content-type': 'application/pdf' },
      payload: Buffer.alloc(FILE_MAX_BYTES + 1, 0x20),
    });
    expect(file.statusCode).toBe(413);
    expect(file.json()).toEqual({ code: 'files.too_large' });
  });

  it('a path parameter longer than any id is 400 with a code, not Fastify’s own 414', async () => {
    const res = await t.app.inject({
      url: `/api/limited/invoices/${'a'.repeat(500)}`,
      headers: bearer(user.customer),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ code: 'validation.invalid' });
  });

  it('the invoice list sorts by recipient name with a search (the fuzz found a 500)', async () => {
    for (const search of ['100', ''])
      for (const order of ['asc', 'desc']) {
        const query = { sort: 'recipientName', order, filter: 'overdue', from: '2026-03-02', search };
        const res = await t.app.inject(call('listInvoices', { query }));
        expect(res.statusCode, `${search} ${order}: ${res.body}`).toBe(200);
      }
  });

  it('an unknown issuer’s fees are 404 issuer.not_found', async () => {
    const get = await t.app.inject(call('getIssuerFees', { params: { id: SAMPLE_ID } }));
    expect(get.statusCode).toBe(404);
    expect(get.json()).toEqual({ code: 'issuer.not_found' });
    const put = await t.app.inject(
      call('setIssuerFees', { params: { id: SAMPLE_ID }, payload: { fees: [] } }),
    );
    expect(put.statusCode).toBe(404);
    expect(put.json()).toEqual({ code: 'issuer.not_found' });
  });

  it('a sum too large to add up is not blamed on the ROT/RUT due date', async () => {
    const recipient = await t.app.inject(call('createRecipient', { payload: VALID_RECIPIENT_BODY }));
    const { recipientID } = recipient.json() as { recipientID: string };
    const row = {
      name: 'Stor',
      quantityMilli: 1_000_000_000,
      unit: 'st',
      unitPriceMinor: 1e9,
      vatBasisPoints: 2500,
    };
    const res = await t.app.inject(
      call('createInvoice', {
        payload: { ...VALID_INVOICE_BODY, invoiceNumber: 'STOR-1', recipientID, rows: Array(20).fill(row) },
      }),
    );
    expect(res.statusCode, res.body).toBe(400);
    const body = res.json() as { code: string; issues?: { path: string; code: string }[] };
    expect(body.code).not.toBe('invoices.rot_rut_invalid');
    expect(body.issues ?? []).not.toContainEqual(expect.objectContaining({ path: 'dueDate' }));
    // The contracts' bound on an invoice total refuses it before any sum is made (money bounds).
    expect(body.issues?.[0]?.code).toBe('validation.invoice_total_range');
  });
});

describe('uploaded file names', () => {
  async function pdf(extra = ''): Promise<Buffer> {
    const doc = await PDFDocument.create();
    doc.addPage().drawText('Bilaga', { x: 50, y: 700, font: await doc.embedFont(StandardFonts.Helvetica) });
    return Buffer.concat([Buffer.from(await doc.save()), Buffer.from(extra)]);
  }

  const upload = async (filename: string, bytes?: Buffer) => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/limited/files?role=attachment&filename=${encodeURIComponent(filename)}`,
      headers: { ...bearer(user.customer), 'content-type': 'application/pdf' },
      payload: bytes ?? (await pdf()),
    });
    expect(res.statusCode, res.body).toBe(200);
    const file = res.json() as { fileID: string; filename: string };
    const [row] = await t.db.select().from(invoiceFiles).where(eq(invoiceFiles.id, file.fileID));
    expect(row?.filename).toBe(file.filename);
    return file;
  };

  it.each([
    ['../../../etc/passwd', 'passwd.pdf'],
    ['..\\..\\windows\\system32\\evil.pdf', 'evil.pdf'],
    ['CON', '_CON.pdf'],
    ['con.pdf', '_con.pdf'],
    ['LPT1.txt.pdf', '_LPT1.txt.pdf'],
    ['Tidrapport maj.pdf', 'Tidrapport maj.pdf'],
    ['Faktura.PDF', 'Faktura.PDF'],
    ['bild.png', 'bild.png.pdf'],
    ['a<b>c:d"e|f?g*h.pdf', 'a_b_c_d_e_f_g_h.pdf'],
    ['  .hidden. . ', 'hidden.pdf'],
    ['...', 'dokument.pdf'],
    ['/', 'dokument.pdf'],
    [`${'å'.repeat(190)}.pdf`, `${'å'.repeat(116)}.pdf`],
  ])('%j is stored as %j', async (given, stored) => {
    const file = await upload(given);
    expect(file.filename).toBe(stored);
  });

  it('a PDF with HTML after it is only ever served as an attachment, never inline', async () => {
    const file = await upload('x.html', await pdf('\n<html><script>alert(document.cookie)</script></html>'));
    expect(file.filename).toBe('x.html.pdf');
    const down = await t.app.inject({
      url: `/api/limited/files/${file.fileID}`,
      headers: bearer(user.customer),
    });
    expect(down.statusCode).toBe(200);
    expect(down.headers['content-type']).toBe('application/pdf');
    expect(down.headers['x-content-type-options']).toBe('nosniff');
    expect(String(down.headers['content-disposition'])).toMatch(/^attachment; filename="x\.html\.pdf"/);
    expect(String(down.headers['content-security-policy'])).toContain("default-src 'self'");
  });

  it('every route that answers a file answers it as an attachment', async () => {
    const inline: string[] = [];
    for (const { op } of operationsOf(doc)) {
      if (ROUTES[op].method !== 'GET' && op !== 'getInvoicesPdf') continue;
      const res = await t.app.inject(call(op, {}));
      const disposition = res.headers['content-disposition'];
      const type = String(res.headers['content-type'] ?? '');
      if (disposition !== undefined && !String(disposition).startsWith('attachment;'))
        inline.push(`${op}: ${disposition}`);
      if (res.statusCode === 200 && !type.startsWith('application/json') && disposition === undefined)
        inline.push(`${op}: ${type} without Content-Disposition`);
    }
    expect(inline).toEqual([]);
  });
});
