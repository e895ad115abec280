import { ANALYTICS_EU_HOST, ANALYTICS_KEY_PLACEHOLDER, ANALYTICS_SENSITIVE_FIELDS } from '@portal/contracts';
import type { PostHog, PostHogConfig } from 'posthog-js';
import { getSession } from './session-store';

/** Properties that would identify the visitor or leak URLs (spec §7): removed before sending. */
export const STRIPPED_PROPERTIES = [
  '$ip',
  '$current_url',
  '$referrer',
  '$referring_domain',
  '$initial_current_url',
  '$initial_referrer',
  '$initial_referring_domain',
] as const;

/** Analytics runs only with a real project key (spec §4): none, or the placeholder, keeps it off. */
export function isAnalyticsKeyUsable(key: string | undefined | null): key is string {
  return typeof key === 'string' && key.trim().length > 0 && !key.includes(ANALYTICS_KEY_PLACEHOLDER);
}

type EventLike = { properties?: Record<string, unknown>; $set_once?: Record<string, unknown> } | null;

/** The `before_send` hook: drops IP, current URL, referrer and referring domain (spec §7). */
export function stripPrivateProperties<E extends EventLike>(event: E): E {
  if (!event) return event;
  for (const bag of [event.properties, event.$set_once]) {
    if (!bag) continue;
    for (const key of STRIPPED_PROPERTIES) delete bag[key];
  }
  return event;
}

/** The init options of spec §4, §9: nothing is captured unless the portal sends it explicitly. */
export function analyticsOptions(isDev: boolean): Partial<PostHogConfig> {
  return {
    api_host: ANALYTICS_EU_HOST,
    persistence: 'localStorage',
    cookie_expiration: 365,
    secure_cookie: true,
    cross_subdomain_cookie: false,
    respect_dnt: true,
    capture_pageview: false,
    capture_pageleave: false,
    autocapture: false,
    disable_session_recording: true,
    save_referrer: false,
    debug: isDev,
    before_send: (event) => stripPrivateProperties(event),
  };
}

let client: PostHog | null = null;
let starting: Promise<PostHog | null> | null = null;

/**
 * Initialises analytics once (spec §4). posthog-js is imported dynamically so that it stays out of
 * the login page's bundle; until it has loaded, events are dropped, as they are with analytics off.
 */
export function initAnalytics(
  key: string | undefined = window.__PORTAL_CONFIG__?.posthogKey,
): Promise<PostHog | null> {
  if (starting) return starting;
  if (!isAnalyticsKeyUsable(key)) return Promise.resolve(null);
  starting = import('posthog-js')
    .then(({ default: posthog }) => {
      posthog.init(key, analyticsOptions(import.meta.env.DEV));
      client = posthog;
      return posthog;
    })
    .catch(() => null);
  return starting;
}

/** Forgets the initialisation so that each unit test starts with analytics off. */
export function resetAnalyticsForTests(): void {
  client = null;
  starting = null;
}

function normaliseFieldName(name: string): string {
  return name.toLowerCase().replace(/[\s_-]/g, '');
}

const SENSITIVE = new Set(ANALYTICS_SENSITIVE_FIELDS.map(normaliseFieldName));

/** Field names that may be sent: the sensitive ones of spec §5 removed, in any spelling. */
export function safeFieldNames(names: readonly string[]): string[] {
  return names.filter((name) => !SENSITIVE.has(normaliseFieldName(name)));
}

/** A path without secrets: the reset link's hash is replaced by its parameter name. */
export function safePagePath(pathname: string): string {
  return pathname.replace(/^\/password\/reset\/[^/]+/, '/password/reset/:hash');
}

export function captureEvent(event: string, properties: Record<string, unknown>): void {
  client?.capture(event, properties);
}

/** `button_clicked` {button, page_path, group_id?} (spec §3). */
export function trackButtonClick(button: string): void {
  const groupId = getSession().group?.id ?? getSession().user?.groupID ?? undefined;
  captureEvent('button_clicked', {
    button,
    page_path: safePagePath(window.location.pathname),
    ...(groupId ? { group_id: groupId } : {}),
  });
}

/** `form_submitted` {form, page, form_fields}: names only, never values (spec §3, §5). */
export function trackFormSubmit(form: string, fieldNames: readonly string[]): void {
  captureEvent('form_submitted', {
    form,
    page: safePagePath(window.location.pathname),
    form_fields: safeFieldNames(fieldNames),
  });
}

/**
 * A form's valid-submit handler that first reports `form_submitted` with the names of the values'
 * fields (trackFormSubmit), then does `onValid`.
 */
export function trackedSubmit<V extends object, R>(
  form: string,
  onValid: (values: V) => R,
): (values: V) => R {
  return (values) => {
    trackFormSubmit(form, Object.keys(values));
    return onValid(values);
  };
}
