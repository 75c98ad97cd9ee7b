// Every public shape of the HTTP API, once: see common.ts for how the schemas are used.
export * from './common.js'
export * from './fetch.js'
export * from './handoff.js'
export * from './tabs.js'
export * from './profiles.js'
export * from './host.js'
export * from './cdp.js'
export * from './events.js'
