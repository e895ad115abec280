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

/** The buyer the plan tests register: a private person in Uppsala. */
export const PLAN_BUYER = {
  name: 'Anna Andersson',
  address: 'Storgatan 5',
  zipcode: '753 20',
  city: 'Uppsala',
  country: 'SE',
  email: 'anna@example.se',
} as const;

/** Registers {@link PLAN_BUYER} as a recipient of the user of `token`; its recipientID. Throws unless 200. */
export async function registerPlanBuyer(t: TestApp, token: string): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/limited/recipients',
    headers: bearer(token),
    payload: PLAN_BUYER,
  });
  if (res.statusCode !== 200) throw new Error(`registering the buyer: ${res.statusCode} ${res.body}`);
  return (res.json() as { recipientID: string }).recipientID;
}

/** A signee signs on the e-signing sandbox's page at `signingLink`, over HTTP; the page's answer. */
export function signOnSandboxPage(signingLink: string, identityNumber: string): Promise<Response> {
  return httpFetch(signingLink, {
    method: 'POST',
    body: new URLSearchParams({ decision: 'sign', personal_number: identityNumber }),
  });
}

/**
 * The e-signing provider's callback reaches the app: the document `documentId` is closed. `token` is the
 * valid one for that document unless a test gives another.
 */
export function deliverSigningCallback(
  t: TestApp,
  documentId: string,
  token = signingCallbackToken(t.config.eSigningCallbackKey, documentId),
) {
  return t.app.inject({
    method: 'POST',
    url: `/api/e-signing/callback?token=${encodeURIComponent(token)}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({
      document_id: documentId,
      document_json: '{"status":"closed"}',
    }).toString(),
  });
}

/**
 * Every signee of a plan sent for signing signs on the e-signing sandbox's page (with `identityNumber`),
 * then the provider's callback reaches the app; answers the callback's answer. Throws when no signee
 * has a page to sign on, when a page refuses, or when the plan has no signing order.
 */
export async function signInstallmentPlan(
  t: TestApp,
  planId: string,
  identityNumber = VALID_PLAN_BODY.signees[0]?.identityNumber ?? '',
) {
  const parties = await t.db
    .select()
    .from(installmentPlanParties)
    .where(eq(installmentPlanParties.planId, planId));
  const signees = parties.filter((party) => party.role === 'signee' && party.signingLink);
  if (signees.length === 0) throw new Error(`plan ${planId} has no signee to sign`);
  for (const party of signees) {
    const signed = await signOnSandboxPage(party.signingLink ?? '', identityNumber);
    if (signed.status >= 400) throw new Error(`signing plan ${planId} on the sandbox: ${signed.status}`);
  }
  const [row] = await t.db.select().from(installmentPlans).where(eq(installmentPlans.id, planId));
  const documentId = row?.signingDocumentId;
  if (!documentId) throw new Error(`plan ${planId} has no signing order`);
  return deliverSigningCallback(t, documentId);
}

/**
 * A registered plan made active through the real paths (docs/INSTALLMENTS.md): sent for signing by
 * `username`, every signee signs on the e-signing sandbox's page (with `identityNumber`), the
 * provider's callback reaches the app, and the back office approves it. Throws at the first step that
 * does not answer as it should.
 */
export async function approveInstallmentPlan(
  t: TestApp,
  planId: string,
  { username = 'demo', identityNumber }: { username?: string; identityNumber: string },
): Promise<void> {
  const token = await t.login(username);
  const sent = await withNodeForms(() =>
    t.app.inject({
      method: 'POST',
      url: `/api/limited/installmentplans/${planId}/signing`,
      headers: bearer(token),
    }),
  );
  if (sent.statusCode !== 200) throw new Error(`sending plan ${planId} for signing: ${sent.body}`);
  const callback = await signInstallmentPlan(t, planId, identityNumber);
  if (callback.statusCode !== 200) throw new Error(`signing callback of plan ${planId}: ${callback.body}`);
  const decided = await t.app.inject({
    method: 'POST',
    url: `/api/backoffice/installmentplans/${planId}/decision`,
    headers: bearer(await t.loginOperator()),
    payload: { decision: 'approved' },
  });
  if (decided.statusCode !== 200) throw new Error(`approving plan ${planId}: ${decided.body}`);
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
  const call = async (method: 'GET' | 'POST', url: string, payload?: object) => {
    const res = await t.app.inject({
      method,
      url,
      headers: bearer(token),
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    });
    if (res.statusCode !== 200)
      throw new Error(`approvedPlan: ${method} ${url}: ${res.statusCode} ${res.body}`);
    return res.json() as unknown;
  };
  const recipientID = await registerPlanBuyer(t, token);
  const plan = installmentPlanDetailSchema.parse(
    await call('POST', '/api/limited/installmentplans', { ...VALID_PLAN_BODY, ...opts.terms, recipientID }),
  );
  await approveInstallmentPlan(t, plan.installmentPlanID, {
    username,
    identityNumber: VALID_PLAN_BODY.signees[0]?.identityNumber ?? '',
  });
  return installmentPlanDetailSchema.parse(
    await call('GET', `/api/limited/installmentplans/${plan.installmentPlanID}`),
  );
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
