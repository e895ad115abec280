/**
 * Window events that connect code outside React (the API client) with the app shell.
 * A 403 asks for the abilities to be loaded again (spec §4, §8).
 */
export const RELOAD_ABILITIES_EVENT = 'portal:reload-abilities';
/** Shows or hides the blocking loader dialog (spec §2). */
export const BLOCKING_LOADER_EVENT = 'portal:blocking-loader';

export interface BlockingLoaderDetail {
  show: boolean;
  text?: string;
}

export function emitReloadAbilities(): void {
  window.dispatchEvent(new Event(RELOAD_ABILITIES_EVENT));
}

export function showBlockingLoader(text?: string): void {
  window.dispatchEvent(
    new CustomEvent<BlockingLoaderDetail>(BLOCKING_LOADER_EVENT, { detail: { show: true, text } }),
  );
}

export function hideBlockingLoader(): void {
  window.dispatchEvent(
    new CustomEvent<BlockingLoaderDetail>(BLOCKING_LOADER_EVENT, { detail: { show: false } }),
  );
}
