import { CHUNK_LOAD_TIMEOUT_MS } from '@portal/contracts';
import { type ComponentType, type LazyExoticComponent, lazy } from 'react';

export class ChunkLoadTimeoutError extends Error {
  constructor() {
    super('chunk load timed out');
    this.name = 'ChunkLoadTimeoutError';
  }
}

/** Rejects when the promise has not settled within `ms` (spec §9: chunk loading times out). */
export function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new ChunkLoadTimeoutError()), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (err: unknown) => {
        clearTimeout(timer);
        reject(err);
      },
    );
  });
}

export interface LazyRoute {
  /** The current lazy component. */
  get: () => LazyExoticComponent<ComponentType>;
  /** Forgets a failed load so the next render imports the chunk again (the Retry button). */
  reset: () => void;
}

/** A code-split route whose chunk fails after CHUNK_LOAD_TIMEOUT_MS and can be retried. */
export function lazyRoute(
  factory: () => Promise<{ default: ComponentType }>,
  timeoutMs: number = CHUNK_LOAD_TIMEOUT_MS,
): LazyRoute {
  const make = () => lazy(() => withTimeout(factory(), timeoutMs));
  let current = make();
  return {
    get: () => current,
    reset: () => {
      current = make();
    },
  };
}
