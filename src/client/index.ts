/**
 * The afhttp driver library: `import { AfhttpClient } from 'afhttp'`.
 * See docs/driver.md for examples.
 */
export { AfhttpClient } from './client.js'
export type { AfhttpClientOptions, CallOptions } from './client.js'
export { AfhttpClientError } from './errors.js'
export type { ClientErrorCode, ClientOnlyCode } from './errors.js'
export type { EventsOptions, WaitForHandoffOptions } from './events.js'
export type * from './types.js'
