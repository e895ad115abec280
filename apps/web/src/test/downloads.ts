import { type MockInstance, vi } from 'vitest';

export { readBlob } from '../lib/read-blob';

/**
 * Catches the files the page saves (lib/download.ts: an object URL on a clicked anchor): each with the
 * anchor's file name and the blob, in order. `click` is the anchor's stubbed click. Undo with
 * `vi.unstubAllGlobals()` and `vi.restoreAllMocks()`.
 */
export function captureDownloads(): {
  saved: { name: string; blob: Blob }[];
  click: MockInstance<(this: HTMLAnchorElement) => void>;
} {
  const saved: { name: string; blob: Blob }[] = [];
  let lastBlob: Blob | undefined;
  vi.stubGlobal(
    'URL',
    Object.assign(URL, {
      createObjectURL: vi.fn((blob: Blob) => {
        lastBlob = blob;
        return 'blob:test';
      }),
      revokeObjectURL: vi.fn(),
    }),
  );
  const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
    this: HTMLAnchorElement,
  ) {
    saved.push({ name: this.download, blob: lastBlob as Blob });
  });
  return { saved, click };
}
