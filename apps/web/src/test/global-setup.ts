import { prepareSeededTemplate } from '@portal/server/testing';

/** Vitest globalSetup: the demo-seeded database of the real server, built once per version of its code. */
export default async function setup(): Promise<void> {
  await prepareSeededTemplate();
}
