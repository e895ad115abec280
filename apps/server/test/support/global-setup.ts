import { prepareSeededTemplate } from './test-app';

/** Vitest globalSetup: the templates of createTestApp and createTestDb, built once per version of the code. */
export default async function setup(): Promise<void> {
  await prepareSeededTemplate();
}
