/**
 * The error `promise` rejects with, which must be a `type` (a partner client's typed error); a promise
 * that resolves, or rejects with anything else, fails the test.
 */
export async function rejectionOf<E extends Error>(
  promise: Promise<unknown>,
  type: abstract new (...args: never[]) => E,
): Promise<E> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof type) return err;
    throw err;
  }
  throw new Error(`expected a ${type.name}`);
}
