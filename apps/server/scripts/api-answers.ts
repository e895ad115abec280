// The API's answers on the demo data, recorded so that a refactoring can be proven not to change them
// (issue #12: "the same API answers, byte for byte, on the demo data — record them before and compare
// after"). Run it on two commits and compare the files:
//   npx tsx apps/server/scripts/api-answers.ts /tmp/before.txt   (on the old commit)
//   npx tsx apps/server/scripts/api-answers.ts /tmp/after.txt    (on the new one)
//   diff /tmp/before.txt /tmp/after.txt
// Every GET of the customer's and the back office's API is asked on the seeded demo (the test app's
// fixed clock). Ids are random per seed, so each UUID is written as the order it first appeared in
// (U1, U2, ...); everything else is the answer byte for byte: JSON and CSV as text, other files as
// their SHA-256, except Excel files, whose zip stamps the time of writing (their size is written).
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { INVOICE_FILTERS } from '@portal/contracts';
import { bearer, createTestApp, prepareSeededTemplate } from '../test/support/test-app';

const out = process.argv[2];
if (!out) throw new Error('usage: api-answers.ts <output file>');

await prepareSeededTemplate();
const t = await createTestApp();
const customer = bearer(await t.login('demo'));
const operator = bearer(await t.loginOperator());

const ids = new Map<string, string>();
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
const normalise = (text: string) =>
  text.replace(UUID, (id) => {
    const key = id.toLowerCase();
    if (!ids.has(key)) ids.set(key, `U${ids.size + 1}`);
    return ids.get(key) as string;
  });

const lines: string[] = [];
async function ask(url: string, headers: Record<string, string> = customer) {
  const res = await t.app.inject({ method: 'GET', url, headers });
  const type = String(res.headers['content-type'] ?? '');
  const disposition = String(res.headers['content-disposition'] ?? '');
  let body: string;
  if (type.includes('json') || type.includes('csv') || type.startsWith('text/')) body = normalise(res.body);
  else if (type.includes('spreadsheetml')) body = `xlsx of ${res.rawPayload.length} bytes`;
  else
    body = `sha256 ${createHash('sha256').update(res.rawPayload).digest('hex')} (${res.rawPayload.length} bytes)`;
  lines.push(`GET ${normalise(url)} -> ${res.statusCode} ${type} ${disposition}\n${body}\n`);
  return res;
}
const firstIds = (res: { body: string }, key: string, n: number): string[] => {
  try {
    const json = JSON.parse(res.body) as { items?: Record<string, string>[] };
    return (json.items ?? []).slice(0, n).map((i) => i[key] ?? '');
  } catch {
    return [];
  }
};

const L = '/api/limited';
await ask('/api/openapi.json');
await ask('/api/self');
await ask(`${L}/dashboard`);
await ask(`${L}/messages`);
const recipients = await ask(`${L}/recipients?page=1&pageSize=50`);
for (const id of firstIds(recipients, 'recipientID', 3)) await ask(`${L}/recipients/${id}`);
await ask(`${L}/recipients?page=1&pageSize=10&search=ab&sort=name&order=desc`);
const articles = await ask(`${L}/articles?page=1&pageSize=50`);
for (const id of firstIds(articles, 'articleID', 2)) await ask(`${L}/articles/${id}`);
await ask(`${L}/companies?search=demo`);
const invoiceIds = new Set<string>();
for (const filter of INVOICE_FILTERS) {
  const res = await ask(`${L}/invoices?filter=${filter}&page=1&pageSize=25`);
  for (const id of firstIds(res, 'invoiceID', 2)) invoiceIds.add(id);
}
for (const sort of ['invoiceNumber', 'dueDate', 'grossMinor', 'recipientName'])
  await ask(`${L}/invoices?filter=all&page=2&pageSize=10&sort=${sort}&order=asc`);
await ask(`${L}/invoices?filter=all&page=1&pageSize=10&search=10`);
await ask(`${L}/invoices?filter=all&page=1&pageSize=10&from=2026-01-01&to=2026-02-15`);
await ask(`${L}/invoices?filter=overdue&page=1&pageSize=10&bucket=1-30`);
const pending = await ask(`${L}/invoices/pending`);
for (const id of firstIds(pending, 'invoiceID', 2)) invoiceIds.add(id);
await ask(`${L}/invoices/next-number`);
for (const id of invoiceIds) {
  await ask(`${L}/invoices/${id}`);
  await ask(`${L}/invoices/${id}/pdf`);
}
await ask(`${L}/invoices/import/template?format=csv`);
const costs = await ask(`${L}/transfercosts?page=1&pageSize=25`);
for (const id of firstIds(costs, 'settlementID', 2)) {
  await ask(`${L}/transfercosts/${id}?page=1&pageSize=25`);
  await ask(`${L}/transfercosts/${id}/bgmax`);
}
await ask(`${L}/reports/payments?from=2025-01-01&to=2026-03-02&page=1&pageSize=50`);
await ask(`${L}/reports/payments/export?from=2025-01-01&to=2026-03-02&format=csv`);
await ask(`${L}/reports/payments/export?from=2025-01-01&to=2026-03-02&format=excel`);
await ask(`${L}/reports/activeInvoices?format=csv`);
await ask(`${L}/reports/activeRegress?format=csv`);
await ask(`${L}/reports/ledger?date=2026-03-01&page=1&pageSize=50`);
await ask(`${L}/reports/ledger/export?date=2026-03-01&format=csv`);
await ask(`${L}/bank-verification`);
await ask('/api/backoffice/payments/unmatched', operator);
await ask('/api/backoffice/books/check', operator);
await ask('/api/backoffice/invoices/pending-decision', operator);

writeFileSync(out, lines.join('\n'));
await t.close();
console.log(`${lines.length} answers written to ${out}`);
