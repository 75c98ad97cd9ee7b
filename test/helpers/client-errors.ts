import { AfhttpClientError } from '../../src/client/index.js'

/** Awaits a call that must fail and returns its typed error (anything else fails the test). */
export async function rejection (p: Promise<unknown>): Promise<AfhttpClientError> {
  try {
    await p
  } catch (err) {
    if (err instanceof AfhttpClientError) return err
    throw err
  }
  throw new Error('expected the call to fail')
}
