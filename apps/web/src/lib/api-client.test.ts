import { ROUTES } from '@portal/contracts';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { installFakeApi } from '../test/fake-api';
import { ApiError, apiRequest, buildUrl, filenameFromDisposition } from './api-client';
import { RELOAD_ABILITIES_EVENT } from './events';
import { getSession, updateSession } from './session-store';

describe('api client', () => {
  it('uses the configured base URL and sends the bearer token', async () => {
    window.__PORTAL_CONFIG__ = { apiBaseUrl: 'https://api.example.com/api/' };
    expect(buildUrl('/api/limited/group', { group: 'a b' })).toBe(
      'https://api.example.com/api/limited/group?group=a+b',
    );
    window.__PORTAL_CONFIG__ = undefined;
    updateSession({ token: 't1' });
    const api = installFakeApi({ 'GET /api/self': () => ({ status: 200, body: { ok: true } }) });
    await apiRequest(ROUTES.getSelf, () => z.object({ ok: z.literal(true) }));
    expect(api.calls[0]?.headers.Authorization).toBe('Bearer t1');
  });

  it('throws ApiError with code, issues and retry time', async () => {
    installFakeApi({
      'POST /api/limited/issuerInfo': () => ({
        status: 400,
        body: { code: 'issuer.invalid', issues: [{ path: 'name', code: 'validation.required' }] },
      }),
    });
    const error = await apiRequest(ROUTES.saveIssuerInfo, () => z.unknown(), { body: {} }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 400, code: 'issuer.invalid', issues: [{ path: 'name' }] });
  });

  it('sends extra headers and keeps the details of an error', async () => {
    const api = installFakeApi({
      'POST /api/limited/invoices': () => ({
        status: 409,
        body: {
          code: 'invoices.duplicate_number',
          issues: [{ path: 'invoiceNumber', code: 'invoices.duplicate_number' }],
          details: {
            grossMinor: 12_500,
            currency: 'SEK',
            recipientName: 'Kund AB',
            invoiceDate: '2026-03-02',
          },
        },
      }),
    });
    const error = await apiRequest(ROUTES.createInvoice, () => z.unknown(), {
      body: {},
      headers: { 'Idempotency-Key': 'key-12345678' },
    }).catch((e: unknown) => e);
    expect(api.calls[0]?.headers['Idempotency-Key']).toBe('key-12345678');
    expect(error).toMatchObject({
      status: 409,
      code: 'invoices.duplicate_number',
      details: { grossMinor: 12_500, recipientName: 'Kund AB' },
    });
  });

  it('a 401 outside the public routes clears the session', async () => {
    updateSession({ token: 't1' });
    installFakeApi({ 'GET /api/self': () => ({ status: 401, body: { code: 'auth.unauthorized' } }) });
    await expect(apiRequest(ROUTES.getSelf, () => z.unknown())).rejects.toMatchObject({ status: 401 });
    expect(getSession().token).toBeNull();
  });

  it('a 403 emits the reload-abilities event and still rejects', async () => {
    const listener = vi.fn();
    window.addEventListener(RELOAD_ABILITIES_EVENT, listener);
    installFakeApi({ 'GET /api/self': () => ({ status: 403, body: { code: 'auth.forbidden' } }) });
    await expect(apiRequest(ROUTES.getSelf, () => z.unknown())).rejects.toMatchObject({
      code: 'auth.forbidden',
    });
    expect(listener).toHaveBeenCalledTimes(1);
    window.removeEventListener(RELOAD_ABILITIES_EVENT, listener);
  });

  it('rejects an answer that does not match the contract', async () => {
    installFakeApi({ 'GET /api/self': () => ({ status: 200, body: { nope: 1 } }) });
    await expect(apiRequest(ROUTES.getSelf, () => z.object({ ok: z.literal(true) }))).rejects.toBeInstanceOf(
      z.ZodError,
    );
  });

  it('reads file names from content-disposition', () => {
    expect(filenameFromDisposition('attachment; filename="report.pdf"')).toBe('report.pdf');
    expect(filenameFromDisposition("attachment; filename*=UTF-8''r%C3%A4kning.xlsx")).toBe('räkning.xlsx');
    expect(filenameFromDisposition(null)).toBeNull();
  });
});
