import { type InstallmentPlanDetail, installmentPlanDetailSchema } from '@portal/contracts';
import { eq } from 'drizzle-orm';
import { installmentPlanParties, installmentPlans } from '../../src/db/schema';
import { signingCallbackToken } from '../../src/modules/e-signing/e-signing.service';
import { VALID_PLAN_BODY } from './route-samples';
import { bearer, type TestApp } from './test-app';

/**
 * Node's own fetch, taken when this file loads: the signee signs on the e-signing sandbox's page over
 * HTTP, also in a web test, which later routes the page's `fetch` to the app.
 */
const httpFetch = globalThis.fetch;

/**
 * Runs `act` with Node's own FormData, Blob and File. In a web test (jsdom) the globals are jsdom's,
 * which Node's fetch cannot send nor the e-signing sandbox recognise, and the app's e-signing client
 * sends the agreement as multipart form data; in a server test this changes nothing.
 */
async function withNodeForms<T>(act: () => Promise<T>): Promise<T> {
  const { Blob: NodeBlob, File: NodeFile } = await import('node:buffer');
  const form = await new Response('a=1', {
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  }).formData();
  const NodeFormData: unknown = form.constructor;
  const globals = globalThis as Record<string, unknown>;
  if (globals.FormData === NodeFormData && globals.Blob === NodeBlob && globals.File === NodeFile)
    return act();
  const saved = { FormData: globalThis.FormData, Blob: globalThis.Blob, File: globalThis.File };
  Object.assign(globalThis, { FormData: NodeFormData, Blob: NodeBlob, File: NodeFile });
  try {
    return await act();
  } finally {
    Object.assign(globalThis, saved);
  }
}

/**
 * An installment plan taken to active (2) the way a customer, the buyer and the back office do, through
 * the API (issue #14, docs/INSTALLMENTS.md): a buyer registered, the plan registered and sent for
 * signing, the signee signing on the e-signing sandbox's page, the provider's callback, and our credit
 * decision. The daily job (`POST /api/backoffice/daily`) then issues its installment invoices.
 */
export async function approvedPlan(
  t: TestApp,
  opts: { username?: string; terms?: Partial<typeof VALID_PLAN_BODY> } = {},
): Promise<InstallmentPlanDetail> {
  const username = opts.username ?? 'demo';
  const token = await t.login(username);
  const call = async (method: 'GET' | 'POST', url: string, payload?: object, auth = token) => {
    const res = await t.app.inject({
      method,
      url,
      headers: bearer(auth),
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    });
    if (res.statusCode !== 200)
      throw new Error(`approvedPlan: ${method} ${url}: ${res.statusCode} ${res.body}`);
    return res.json() as unknown;
  };
  const buyer = (await call('POST', '/api/limited/recipients', {
    name: 'Anna Andersson',
    address: 'Storgatan 5',
    zipcode: '753 20',
    city: 'Uppsala',
    country: 'SE',
    email: 'anna@example.se',
  })) as { recipientID: string };
  const plan = installmentPlanDetailSchema.parse(
    await call('POST', '/api/limited/installmentplans', {
      ...VALID_PLAN_BODY,
      ...opts.terms,
      recipientID: buyer.recipientID,
    }),
  );
  const url = `/api/limited/installmentplans/${plan.installmentPlanID}`;
  await withNodeForms(() => call('POST', `${url}/signing`));
  const [party] = await t.db
    .select()
    .from(installmentPlanParties)
    .where(eq(installmentPlanParties.planId, plan.installmentPlanID));
  if (!party?.signingLink) throw new Error('approvedPlan: no signing link');
  const signed = await httpFetch(party.signingLink, {
    method: 'POST',
    body: new URLSearchParams({
      decision: 'sign',
      personal_number: VALID_PLAN_BODY.signees[0]?.identityNumber ?? '',
    }),
  });
  if (signed.status >= 400) throw new Error(`approvedPlan: signing answered ${signed.status}`);
  const [row] = await t.db
    .select()
    .from(installmentPlans)
    .where(eq(installmentPlans.id, plan.installmentPlanID));
  const documentId = row?.signingDocumentId ?? '';
  const token2 = signingCallbackToken(t.config.eSigningCallbackKey, documentId);
  const callback = await t.app.inject({
    method: 'POST',
    url: `/api/e-signing/callback?token=${encodeURIComponent(token2)}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({
      document_id: documentId,
      document_json: '{"status":"closed"}',
    }).toString(),
  });
  if (callback.statusCode !== 200) throw new Error(`approvedPlan: callback answered ${callback.statusCode}`);
  await call(
    'POST',
    `/api/backoffice/installmentplans/${plan.installmentPlanID}/decision`,
    { decision: 'approved' },
    await t.loginOperator(),
  );
  return installmentPlanDetailSchema.parse(await call('GET', url));
}

/** The back office runs the daily job on `date` (its plans' step too), the app's clock set to that morning. */
export async function runDailyOn(t: TestApp, date: string): Promise<void> {
  t.clock.set(new Date(`${date}T05:00:00.000Z`));
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/backoffice/daily',
    headers: bearer(await t.loginOperator()),
    payload: { date },
  });
  if (res.statusCode !== 200) throw new Error(`runDailyOn ${date}: ${res.statusCode} ${res.body}`);
}
