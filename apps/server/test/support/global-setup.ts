import { prepareSeededTemplate } from './test-app';

/** Vitest globalSetup: the demo-seeded template of createTestApp, built once per version of the code. */
export default async function setup(): Promise<void> {
  await prepareSeededTemplate();
}
