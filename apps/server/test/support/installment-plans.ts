import { request } from 'node:http';
import { eq } from 'drizzle-orm';
import { installmentPlanParties, installmentPlans } from '../../src/db/schema';
import { signingCallbackToken } from '../../src/modules/e-signing/e-signing.service';
import type { TestApp } from './test-app';

/**
 * Posts a form to the e-signing sandbox's page over a real socket (node:http, not `fetch`: the web's
 * tests route `fetch` to the app itself).
 */
function postForm(url: string, form: Record<string, string>): Promise<number> {
  const body = new URLSearchParams(form).toString();
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          'content-length': Buffer.byteLength(body),
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * A registered plan made active through the real paths (docs/INSTALLMENTS.md): sent for signing by
 * `username`, every signee signs on the e-signing sandbox's page (with `identityNumber`), the
 * provider's callback reaches the app, and the back office approves it. Throws at the first step that
 * does not answer as it should.
 */
export async function approveInstallmentPlan(
  app: TestApp,
  planId: string,
  { username = 'demo', identityNumber }: { username?: string; identityNumber: string },
): Promise<void> {
  const token = await app.login(username);
  const sent = await app.call(token, 'POST', `/api/limited/installmentplans/${planId}/signing`);
  if (sent.statusCode !== 200) throw new Error(`sending plan ${planId} for signing: ${sent.body}`);
  const [plan] = await app.db.select().from(installmentPlans).where(eq(installmentPlans.id, planId));
  const parties = await app.db
    .select()
    .from(installmentPlanParties)
    .where(eq(installmentPlanParties.planId, planId));
  const documentId = plan?.signingDocumentId;
  if (!documentId) throw new Error(`plan ${planId} has no signing order`);
  for (const party of parties) {
    if (party.role !== 'signee' || !party.signingLink) continue;
    const status = await postForm(party.signingLink, { decision: 'sign', personal_number: identityNumber });
    if (status >= 400) throw new Error(`signing plan ${planId} on the sandbox: ${status}`);
  }
  const token2 = signingCallbackToken(app.config.eSigningCallbackKey, documentId);
  const callback = await app.app.inject({
    method: 'POST',
    url: `/api/e-signing/callback?token=${encodeURIComponent(token2)}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({
      document_id: documentId,
      document_json: '{"status":"closed"}',
    }).toString(),
  });
  if (callback.statusCode !== 200) throw new Error(`signing callback of plan ${planId}: ${callback.body}`);
  const operator = await app.loginOperator();
  const decided = await app.call(operator, 'POST', `/api/backoffice/installmentplans/${planId}/decision`, {
    decision: 'approved',
  });
  if (decided.statusCode !== 200) throw new Error(`approving plan ${planId}: ${decided.body}`);
}
