import { ANALYTICS_EU_HOST } from '@portal/contracts';
import posthog from 'posthog-js';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  analyticsOptions,
  initAnalytics,
  resetAnalyticsForTests,
  safeFieldNames,
  safePagePath,
  stripPrivateProperties,
  trackFormSubmit,
} from './analytics';

describe('analytics initialisation (spec §4, §9)', () => {
  beforeEach(() => {
    resetAnalyticsForTests();
    // The provider's servers are unreachable here: the real object's init is replaced by a spy.
    vi.spyOn(posthog, 'init').mockImplementation(() => posthog);
  });
  afterEach(() => resetAnalyticsForTests());

  it('stays off without a key', async () => {
    expect(await initAnalytics(undefined)).toBeNull();
    expect(await initAnalytics('')).toBeNull();
    expect(posthog.init).not.toHaveBeenCalled();
  });

  it('stays off with the placeholder key', async () => {
    expect(await initAnalytics('phc___POSTHOG_KEY__')).toBeNull();
    expect(posthog.init).not.toHaveBeenCalled();
  });

  it('initialises once with exactly the spec options', async () => {
    await initAnalytics('phc_real');
    await initAnalytics('phc_real');
    expect(posthog.init).toHaveBeenCalledTimes(1);
    const [key, options] = vi.mocked(posthog.init).mock.calls[0] ?? [];
    expect(key).toBe('phc_real');
    const { before_send, ...rest } = options ?? {};
    // The spec's options in alphabetical order.
    expect(rest).toEqual({
      api_host: ANALYTICS_EU_HOST,
      autocapture: false,
      capture_pageleave: false,
      capture_pageview: false,
      cookie_expiration: 365,
      cross_subdomain_cookie: false,
      debug: import.meta.env.DEV,
      disable_session_recording: true,
      persistence: 'localStorage',
      respect_dnt: true,
      save_referrer: false,
      secure_cookie: true,
    });
    expect(typeof before_send).toBe('function');
  });

  it('sends form_submitted with field names only once initialised', async () => {
    const capture = vi.spyOn(posthog, 'capture').mockImplementation(() => undefined);
    trackFormSubmit('before', ['a']);
    expect(capture).not.toHaveBeenCalled();
    await initAnalytics('phc_real');
    trackFormSubmit('change_password', ['currentPassword', 'newPassword', 'confirmPassword', 'note']);
    expect(capture).toHaveBeenCalledWith('form_submitted', {
      form: 'change_password',
      page: '/',
      form_fields: ['note'],
    });
  });
});

describe('debug only in development', () => {
  it('follows the flag', () => {
    expect(analyticsOptions(true).debug).toBe(true);
    expect(analyticsOptions(false).debug).toBe(false);
  });
});

describe('property stripping (spec §7)', () => {
  it('removes IP, URL, referrer and referring domain, initial variants included', () => {
    const event = {
      event: 'x',
      properties: {
        $ip: '1.2.3.4',
        $current_url: 'https://x/password/reset/abc',
        $referrer: 'https://ref',
        $referring_domain: 'ref',
        $initial_referrer: 'https://ref',
        $initial_referring_domain: 'ref',
        $initial_current_url: 'https://x',
        button: 'login_submit',
      },
      $set_once: { $initial_referrer: 'https://ref', $initial_current_url: 'https://x', keep: 1 },
    };
    const result = stripPrivateProperties(event);
    expect(result.properties).toEqual({ button: 'login_submit' });
    expect(result.$set_once).toEqual({ keep: 1 });
    expect(stripPrivateProperties(null)).toBeNull();
  });

  it('the before_send hook strips too', () => {
    const hook = analyticsOptions(false).before_send as (e: unknown) => {
      properties: Record<string, unknown>;
    };
    expect(hook({ event: 'x', properties: { $ip: '1', a: 1 } }).properties).toEqual({ a: 1 });
  });
});

describe('sensitive field names (spec §5)', () => {
  it.each([
    'password',
    'Password',
    'newPassword',
    'new_password',
    'new-password',
    'currentPassword',
    'current password',
    'confirmPassword',
    'confirm_password',
    'passwordConfirmation',
    'password_confirmation',
    'ssn',
    'SSN',
    'personalId',
    'personal_id',
  ])('drops %s', (name) => {
    expect(safeFieldNames([name, 'username'])).toEqual(['username']);
  });

  it('keeps ordinary names', () => {
    expect(safeFieldNames(['name', 'email', 'VAT', 'code'])).toEqual(['name', 'email', 'VAT', 'code']);
  });

  it('hides the reset link hash in page paths', () => {
    expect(safePagePath('/password/reset/abc123')).toBe('/password/reset/:hash');
    expect(safePagePath('/invoices')).toBe('/invoices');
  });
});
